import NudgeKit

Runner.main(spec: Habitmatch.spec, handlers: Habitmatch.handlers)
