import NudgeKit

Runner.main(spec: Rewards.spec, handlers: Rewards.handlers)
