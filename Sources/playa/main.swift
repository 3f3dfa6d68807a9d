import NudgeKit

Runner.main(spec: Playa.spec)
