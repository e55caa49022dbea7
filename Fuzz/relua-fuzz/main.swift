import CFuzzDriver
import Foundation

// relua-fuzz: libFuzzer targets for the relua host (see Scripts/fuzz and README "Fuzzing").
//
//   relua-fuzz TARGET [libFuzzer flags] [CORPUS_DIR or FILE …]
//
// TARGET is one of `json`, `lua-value`, `action-path`, `run`, `websocket-frames`,
// `inspector-request`, `inspector-socket`, `test-report`, `coverage`, `pattern`, `shared-file`, `app-message` (see the Target files). Built by
// Scripts/fuzz with libFuzzer linked in (`-sanitize=fuzzer,address`), this hands everything after
// TARGET to libFuzzer. Built plainly (`swift build --product relua-fuzz`), libFuzzer is absent and
// it runs every file given (directories: every file in them, recursively, in name order) once:
// a regression run of the corpus. libFuzzer flags are ignored then.
//
// Environment: RELUA_FUZZ_NO_GUARDS=1 turns off the harness's guards against bug classes already
// known (see FuzzGuards); RELUA_FUZZ_SCRIPTS overrides the Scripts directory (`require` root, and
// the example features of `action-path`).

let usage = """
  usage: relua-fuzz TARGET [libFuzzer flags] [CORPUS_DIR or FILE …]
  targets: \(FuzzTargets.names.joined(separator: ", "))
  """

var arguments = CommandLine.arguments
// libFuzzer's -fork/-jobs/-merge start this executable again with the flags it was given, which
// no longer hold TARGET: it goes to them in RELUA_FUZZ_TARGET.
let targetName: String
if arguments.count >= 2, FuzzTargets.names.contains(arguments[1]) {
  targetName = arguments.remove(at: 1)
  setenv("RELUA_FUZZ_TARGET", targetName, 1)
} else if let inherited = ProcessInfo.processInfo.environment["RELUA_FUZZ_TARGET"], FuzzTargets.names.contains(inherited) {
  targetName = inherited
} else {
  FileHandle.standardError.write(Data((usage + "\n").utf8))
  exit(2)
}
FuzzTargets.current = FuzzTargets.make(targetName)

let callback: relua_fuzz_callback = { data, size in
  MainActor.assumeIsolated {
    FuzzTargets.current!.run(UnsafeRawBufferPointer(start: data, count: size))
  }
  return 0
}

if relua_fuzz_driver_available() != 0 {
  // libFuzzer keeps argv (it re-executes itself with it in fork mode): strings that live forever.
  var argc = Int32(arguments.count)
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .allocate(capacity: arguments.count + 1)
  for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
  argv![arguments.count] = nil
  exit(relua_fuzz_run_driver(&argc, &argv, callback))
}

// No libFuzzer: replay the inputs given.
relua_fuzz_install_crash_note()
var files: [String] = []
var ignoredFlags: [String] = []
for argument in arguments.dropFirst() {
  if argument.hasPrefix("-") { ignoredFlags.append(argument); continue }
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
  if isDirectory.boolValue {
    let base = URL(fileURLWithPath: argument)
    let found = (FileManager.default.enumerator(atPath: argument)?.allObjects as? [String] ?? [])
      .filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }
      .map { base.appendingPathComponent($0).path }
      .filter { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
      }
    files += found.sorted()
  } else {
    files.append(argument)
  }
}
if !ignoredFlags.isEmpty {
  FileHandle.standardError.write(Data(
    "relua-fuzz: built without libFuzzer; replaying inputs only (ignored: \(ignoredFlags.joined(separator: " ")))\n".utf8))
}
let started = Date()
for file in files {
  guard let data = FileManager.default.contents(atPath: file) else { continue }
  relua_fuzz_set_current_input(file)
  data.withUnsafeBytes { bytes in
    _ = callback(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
  }
}
relua_fuzz_set_current_input(nil)
let elapsed = Date().timeIntervalSince(started)
print("relua-fuzz \(targetName): replayed \(files.count) inputs in \(String(format: "%.2f", elapsed)) s, no crash")
