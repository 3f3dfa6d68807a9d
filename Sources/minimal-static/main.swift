print("", terminator: "")
