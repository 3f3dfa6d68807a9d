# Builds one mutant of one NudgeKit source the way SwiftPM's own last build
# would have: the file's compile command and the products' link commands,
# captured from `swift build -v` (capture), run again with the mutant's
# object in place of the file's (build). Nothing under .build is written.
import concurrent.futures, json, os, shlex, subprocess, sys

def capture(log_path, probe, out):
    probe = os.path.abspath(probe)
    compile_cmd, links = None, []
    for line in open(log_path, errors="replace"):
        line = line.rstrip("\n")
        if not line.startswith("/") and not line.startswith("swift"):
            continue
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        if len(argv) < 3:
            continue
        tool = os.path.basename(argv[0])
        if tool == "swift-frontend" and argv[1:3] == ["-frontend", "-c"] and "-primary-file" in argv:
            primaries = [argv[i + 1] for i, a in enumerate(argv) if a == "-primary-file"]
            if primaries == [probe]:
                compile_cmd = argv
        elif tool == "swiftc" and "-emit-executable" in argv and "-o" in argv:
            lists = [a[1:] for a in argv if a.startswith("@") and a.endswith("Objects.LinkFileList")]
            if len(lists) == 1:
                links.append(argv)
    if compile_cmd is None or not links:
        return "no compile command for %s or no link command in the log" % probe
    # The file list (all of NudgeKit's sources) was a temporary file: the one
    # SwiftPM keeps beside the objects holds the same.
    argv, out_argv, skip = compile_cmd, [], 0
    objdir = None
    for i, a in enumerate(argv):
        if skip:
            skip -= 1
            continue
        if a in ("-emit-dependencies-path", "-emit-reference-dependencies-path",
                 "-serialize-diagnostics-path", "-index-store-path"):
            skip = 1
            continue
        if a == "-index-system-modules":
            continue
        if a == "-o":
            objdir = os.path.dirname(argv[i + 1])
            out_argv += ["-o", "@OBJ@"]
            skip = 1
            continue
        if a == "-primary-file":
            out_argv += ["-primary-file", "@FILE@"]
            skip = 1
            continue
        if a == "-filelist":
            out_argv += ["-filelist", "@SOURCES@"]
            skip = 1
            continue
        out_argv.append(a)
    sources = os.path.join(objdir, "sources")
    omap = os.path.join(objdir, "output-file-map.json")
    if not (os.path.exists(sources) and os.path.exists(omap)):
        return "no sources list or output file map in %s" % objdir
    if probe not in open(sources).read().split("\n"):
        return "%s is not in %s" % (probe, sources)
    json.dump({"compile": out_argv, "sources": sources, "map": omap, "links": links}, open(out, "w"))
    return None

def build(plan_path, file, work, dest):
    plan = json.load(open(plan_path))
    file = os.path.abspath(file)
    omap = json.load(open(plan["map"]))
    if file not in omap or "object" not in omap[file]:
        return 3  # not one of NudgeKit's sources: build it the slow way
    original = omap[file]["object"]
    obj = os.path.join(work, "mutant.o")
    argv = [{"@OBJ@": obj, "@FILE@": file, "@SOURCES@": plan["sources"]}.get(a, a) for a in plan["compile"]]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.stdout.write(r.stdout.decode(errors="replace"))
        return 1
    jobs = []
    for n, link in enumerate(plan["links"]):
        listed = [a[1:] for a in link if a.startswith("@") and a.endswith("Objects.LinkFileList")][0]
        objects = open(listed).read().split("\n")
        if original not in objects:
            continue
        mine = os.path.join(work, "objects-%d" % n)
        open(mine, "w").write("\n".join(obj if o == original else o for o in objects))
        argv, i = [], 0
        while i < len(link):
            a = link[i]
            if a == "-o":
                argv += ["-o", os.path.join(dest, os.path.basename(link[i + 1]))]
                i += 2
                continue
            if a != "-v":
                argv.append("@" + mine if a == "@" + listed else a)
            i += 1
        jobs.append(argv)
    # Two links at a time (each one mostly a single thread).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda argv: subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT), jobs))
    for r in results:
        if r.returncode != 0:
            sys.stdout.write(r.stdout.decode(errors="replace"))
            return 1
    return 0

if __name__ == "__main__":
    if sys.argv[1] == "capture":
        err = capture(sys.argv[2], sys.argv[3], sys.argv[4])
        if err:
            print(err)
            sys.exit(1)
    else:
        sys.exit(build(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]))
