import NudgeKit

Runner.main(spec: Habitmatch.spec)
