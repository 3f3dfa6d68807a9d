


/// Every tool of the family, for documentation and completion checks.
public let familySpecs: [ToolSpec] = [Tenclub.spec, Yomo.spec, Rewards.spec, Playa.spec, Habitmatch.spec]
