import NudgeKit

Runner.main(spec: Playa.spec, handlers: Playa.handlers)
