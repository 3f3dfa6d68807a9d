// The five tools, listed once. Each ToolSpec is its tool's registry: the
// commands as declared, each with the handler bound where it is declared.
// Documentation, completion and registry checks iterate over this list, so
// a tool missing from it is untested.

/// Every tool: its commands, and the handlers that run them.
public let toolSpecs: [ToolSpec] = [Tenclub.spec, Yomo.spec, Rewards.spec, Playa.spec, Habitmatch.spec]
