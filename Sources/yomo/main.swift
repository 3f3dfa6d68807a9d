import NudgeKit

Runner.main(spec: Yomo.spec, handlers: Yomo.handlers)
