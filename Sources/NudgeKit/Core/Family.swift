// The five tools of the family, listed once: documentation and completion
// checks iterate over this list, so a tool missing from it is untested.

/// Every tool of the family, for documentation and completion checks.
public let familySpecs: [ToolSpec] = [Tenclub.spec, Yomo.spec, Rewards.spec, Playa.spec, Habitmatch.spec]
