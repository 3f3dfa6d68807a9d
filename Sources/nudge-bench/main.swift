import NudgeKit
