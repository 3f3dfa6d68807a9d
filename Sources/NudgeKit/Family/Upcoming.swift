// The four tools whose own issues have not landed yet: they answer --help
// and --version, and refuse everything else with a usage error.

public enum Rewards {
    public static let spec = ToolSpec(
        name: "rewards",
        summary: "Family screen-time rewards: learning time earns points, points buy reward time.",
        commands: [], defaultCommand: nil)
}


/// Every tool of the family, for documentation and completion checks.
public let familySpecs: [ToolSpec] = [Tenclub.spec, Yomo.spec, Rewards.spec, Playa.spec, Habitmatch.spec]
