import NudgeKit

Runner.main(spec: Tenclub.spec, handlers: Tenclub.handlers)
