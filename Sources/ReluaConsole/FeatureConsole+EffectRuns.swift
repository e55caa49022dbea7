import Composable
import Relua

/// A long-running effect's actions (a clock's ticks) shown without flooding the REPL: the first
/// one is shown as every change an effect makes — `(effect)`, the diff, the screen — and each
/// next one that is the same action (same path, same payload) on the same screens, while nothing
/// else was written and no line entered, is written over it: `(effect ×5: timerTicked)`, the
/// diff since the run began, the screen as it is now. Only the terminal's display is summed up:
/// each action is reduced, recorded (`:record`) and told to the inspector one by one as before.
/// Without a terminal (piped input) every change is printed, as before.
extension FeatureConsole {
  /// The one effect's action reduced since the screen was last shown, if exactly one was.
  struct ReducedSinceShown {
    private(set) var count = 0
    private(set) var onlyReceived: FeatureAction?

    mutating func note(_ action: FeatureAction, received: Bool) {
      count += 1
      onlyReceived = count == 1 && received ? action : nil
    }
  }

  /// Repeats of one effect's action, shown in place.
  struct EffectRun {
    let action: FeatureAction
    /// The state before its first action, the diff's start.
    let before: Value
    let breadcrumb: String
    var count: Int
    var mark: LineReader.BlockMark
  }

  /// What `showScreen` writes before the screen, in one block (over the block at `replacing`).
  struct EffectBlock {
    let preface: String
    let replacing: LineReader.BlockMark?
  }

  /// A change that no command made: shown as the next of the run of the same action, in place,
  /// or as a change of its own (which may start a run).
  func showBackgroundChange() {
    let action = reducedSinceShown.onlyReceived
    let output = session.output
    if let run = effectRun, let action, action == run.action, run.breadcrumb == breadcrumb, LineReader.isLast(run.mark) {
      guard let diff = ValueDiff.lines(from: run.before, to: currentState, rowsShown: Self.rowsShown) else { return }
      let count = run.count + 1
      let preface = output.styled("(effect ×\(count): \(action.description))", .dim) + "\n" + output.diff(diff)
      if let mark = showScreen(background: true, block: EffectBlock(preface: preface, replacing: run.mark)) {
        effectRun = EffectRun(action: action, before: run.before, breadcrumb: run.breadcrumb, count: count, mark: mark)
      } else {
        effectRun = nil
      }
      return
    }
    effectRun = nil
    let before = shownState
    guard let diff = ValueDiff.lines(from: before, to: currentState, rowsShown: Self.rowsShown) else { return }
    let preface = output.styled("(effect)", .dim) + "\n" + output.diff(diff)
    let shownBreadcrumb = breadcrumb
    guard let mark = showScreen(background: true, block: EffectBlock(preface: preface, replacing: nil)), let action else { return }
    effectRun = EffectRun(action: action, before: before, breadcrumb: shownBreadcrumb, count: 1, mark: mark)
  }
}
