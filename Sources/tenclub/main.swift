import NudgeKit

Runner.main(spec: Tenclub.spec)
