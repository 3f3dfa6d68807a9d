import NudgeKit

Runner.main(spec: Rewards.spec)
