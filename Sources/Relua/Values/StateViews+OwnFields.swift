import CReluaShim

// The short path of the commonest accesses, `s.field` and `s.field = number or boolean` on the
// session's own record. The shim's view metamethods call these with plain arguments (no Lua
// stack, no trampoline): they touch no Lua state, allocate nothing in Lua and cannot fail, and
// decline (the general metamethods then run) whenever the access is not of that shape.
extension StateViews {
  /// The views' metamethods for the shim: the short paths first, the general ones behind them.
  /// The short paths are closure literals of the C type, not functions converted to it: a
  /// function gets a thunk of its own. The methods they call stay out of line (not forced inline):
  /// measured, the compiler then inlines the record's search and the move into them and keeps them
  /// leaner. The shim passes a context, key and scalar that are never NULL (it checks the context).
  static let viewMethods = relua_view_methods(
    read: { context, view, key, length, field in
      // Guaranteed, not retained: Lua holds the object as long as it can call this.
      Unmanaged<StateViews>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { views in
        views.readOwnField(view, key: UnsafeRawPointer(key.unsafelyUnwrapped), length: length, into: field.unsafelyUnwrapped)
      }
    },
    write: { context, view, key, length, new in
      Unmanaged<StateViews>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { views in
        views.writeOwnField(view, key: UnsafeRawPointer(key.unsafelyUnwrapped), length: length, new.unsafelyUnwrapped) ? 1 : 0
      }
    },
    index: { L, context in StateViews.dispatch(L, context) { try $0.index($1) } },
    newindex: { L, context in StateViews.dispatch(L, context) { try $0.newIndex($1) } }
  )

  /// Whether `view` (what `lua_touserdata` gave for the receiver, whatever its type) is the running
  /// session's own state: its root view, current. One comparison of bits; no full userdata can
  /// pass (see `ViewHandle`), so the shim need not check the receiver's type. The callers also
  /// need `value` to be a record, which it never is between sessions (it is `.null` then): that
  /// test stands for `isActive` (and a view of an ended session has an older generation anyway).
  /// Bits, not optional pointers: no test for nil.
  @inline(__always)
  private func isLiveRoot(_ view: UnsafeMutableRawPointer?) -> Bool {
    UInt(bitPattern: view) == UInt(bitPattern: rootHandle.pointer)
  }

  /// `view.key` when `view` is the session's own record and the field is absent or holds a
  /// number or a boolean: its kind (the value in `field`); `RELUA_SCALAR_NONE` otherwise.
  func readOwnField(
    _ view: UnsafeMutableRawPointer?, key: UnsafeRawPointer, length: Int, into field: UnsafeMutablePointer<relua_scalar>
  ) -> Int32 {
    // Borrowed in place: the short search calls nothing, so `value` needs no retain.
    guard isLiveRoot(view), case .record(let record) = value,
      let (position, found) = record.searchByPrefix(key: key, length: length)
    else { return Int32(RELUA_SCALAR_NONE) }
    guard found else { return Int32(RELUA_SCALAR_NIL) }
    // Through the buffer: the search found `position`, no bounds check needed.
    return record.fields.withUnsafeBufferPointer { fields in
      switch fields[position].value {
      case .integer(let integer):
        field.pointee.integer = integer
        return Int32(RELUA_SCALAR_INTEGER)
      case .float(let number):
        field.pointee.number = number
        return Int32(RELUA_SCALAR_FLOAT)
      case .boolean(let flag):
        field.pointee.boolean = flag ? 1 : 0
        return Int32(RELUA_SCALAR_BOOLEAN)
      default:
        return Int32(RELUA_SCALAR_NONE)
      }
    }
  }

  /// `view.key = new` when `view` is the session's own record and the field holds a number or a
  /// boolean: done in place where the key was found, logged without references; false when the
  /// write is not of that shape (the general path does it).
  func writeOwnField(
    _ view: UnsafeMutableRawPointer?, key: UnsafeRawPointer, length: Int, _ new: UnsafePointer<relua_scalar>
  ) -> Bool {
    guard isLiveRoot(view), case .record = value else { return false }
    return withRootRecord { record in
      guard let (position, found) = record.searchByPrefix(key: key, length: length), found else { return false }
      // Only the kind is tested (no payload bound): the old value then moves into the log as it
      // is, bits and all, with no conversion either way.
      let holdsScalar = record.fields.withUnsafeBufferPointer { fields in
        switch fields[position].value {
        case .integer, .float, .boolean: return true
        default: return false
        }
      }
      guard holdsScalar else { return false }
      return record.fields.withUnsafeMutableBufferPointer { fields in
        // Made here, after the uniqueness check's call: nothing to keep across it. A number or
        // a boolean: nothing to retain or destroy on any path.
        let newValue: Value
        let kind = new.pointee.kind
        if _fastPath(kind == RELUA_SCALAR_INTEGER) {  // the commonest write first (a switch tested it last)
          newValue = .integer(new.pointee.integer)
        } else if kind == RELUA_SCALAR_FLOAT {
          newValue = .float(new.pointee.number)
        } else if kind == RELUA_SCALAR_BOOLEAN {
          newValue = .boolean(new.pointee.boolean != 0)
        } else {
          return false  // not a write the shim makes; declined (a copy made above is harmless)
        }
        withUnsafeMutablePointer(to: &fields[position].value) { field in
          undoLog.recordOwnField(at: position, old: field.move())
          field.initialize(to: newValue)
        }
        return true
      }
    }
  }

  /// Runs `body` on the session's own state, a record (checked by the caller), moved out of
  /// `value` and back: a move, not a copy (no retain, and the record is uniquely referenced for
  /// writes), and nothing left behind in `value` to destroy. `body` must not touch `value`.
  @inline(__always)
  private func withRootRecord<R>(_ body: (inout ValueRecord) -> R) -> R {
    withUnsafeMutablePointer(to: &value) { state in
      guard case .record(var record) = state.move() else { preconditionFailure("the state is not a record") }
      defer { state.initialize(to: .record(record)) }
      return body(&record)
    }
  }
}
