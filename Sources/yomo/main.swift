import NudgeKit

Runner.main(spec: Yomo.spec)
