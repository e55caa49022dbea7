/// The fields of a record: string keys to non-nil values, kept **sorted by key** (by their UTF-8
/// bytes, as C's `strcmp` would: ASCII keys in ASCII order, and exactly the Lua string's bytes).
///
/// Why sorted and not insertion order: records come from Lua tables, and a Lua table does not
/// remember the order its keys were added in. Sorting makes printing, diffs and JSON stable no
/// matter where a record came from. Records are small, so a sorted array (binary search, no
/// hashing, cheap to copy) beats a dictionary here, and a Lua key can be looked up straight from
/// its bytes without making a Swift string.
public struct ValueRecord: Hashable, Sendable {
  /// One field: a key and its (non-nil) value.
  public struct Field: Hashable, Sendable {
    /// The field's name.
    public let key: String
    /// The field's value (never `.null`).
    public var value: Value
    /// The key's first 8 UTF-8 bytes, big-endian, zero-padded (and its length): comparing these
    /// as integers orders most keys without reaching the string's bytes (see `search(bytes:)`).
    let keyPrefix: UInt64
    let keyLength: Int

    /// A field `key = value`.
    public init(key: String, value: Value) {
      self.key = key
      self.value = value
      var key = key
      (keyPrefix, keyLength) = key.withUTF8 { (utf8KeyPrefix(UnsafeRawBufferPointer($0)), $0.count) }
    }
  }

  /// The fields, sorted by key.
  public internal(set) var fields: [Field] = []

  /// A record with no fields.
  public init() {}

  /// Fields in any order; a later duplicate key wins; `.null` values are dropped.
  public init(_ pairs: some Sequence<(String, Value)>) {
    for (key, value) in pairs { self[key] = value }
  }

  /// How many fields.
  public var count: Int { fields.count }
  /// Whether there are none.
  public var isEmpty: Bool { fields.isEmpty }
  /// The keys, sorted.
  public var keys: [String] { fields.map(\.key) }

  /// The position of `key`, or where it would be inserted.
  @inline(__always)
  func search(_ key: String) -> (position: Int, found: Bool) {
    var key = key
    return key.withUTF8 { search(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// The position of the key with these UTF-8 bytes, or where it would be inserted. Compares the
  /// keys' 8-byte prefixes as integers first; only keys sharing them compare their strings.
  func search(bytes key: UnsafeRawBufferPointer) -> (position: Int, found: Bool) {
    binarySearch(prefix: utf8KeyPrefix(key), length: key.count) { field in compareUTF8(field.key, key) }!
  }

  /// `search(bytes:)` of the `length` bytes at `key`, when the 8-byte prefixes and lengths settle
  /// it, else nil (two keys longer than 8 bytes share the prefix). Inlined and calling nothing, so
  /// that the hot own-field access of a state view neither calls nor retains. (A pointer and a
  /// length, not a buffer: a buffer's start may be nil, which costs a test on every access.)
  @inline(__always)
  func searchByPrefix(key: UnsafeRawPointer, length: Int) -> (position: Int, found: Bool)? {
    binarySearch(prefix: utf8KeyPrefix(key, length), length: length) { _ in nil }
  }

  /// `searchByPrefix(key:length:)` of a key whose prefix was computed once (`utf8KeyPrefix`): a
  /// field the host reads on every send (a shared holder) is found without touching its string.
  @inline(__always)
  func searchByPrefix(_ prefix: UInt64, length: Int) -> (position: Int, found: Bool)? {
    binarySearch(prefix: prefix, length: length) { _ in nil }
  }

  /// The binary search of `search(bytes:)` for a key of `keyLength` bytes whose 8-byte prefix is
  /// `prefix`; `tie` orders a field that shares it when both are longer (nil: give up).
  @inline(__always)
  private func binarySearch(
    prefix: UInt64, length keyLength: Int, tie: (Field) -> Int?
  ) -> (position: Int, found: Bool)? {
    fields.withUnsafeBufferPointer { fields in
      var low = 0
      var high = fields.count
      while low < high {
        let middle = (low &+ high) >> 1
        let fieldPrefix = fields[middle].keyPrefix
        let fieldLength = fields[middle].keyLength
        let order: Int
        if fieldPrefix != prefix {
          order = fieldPrefix < prefix ? -1 : 1
        } else if fieldLength == keyLength, keyLength <= 8 {
          return (middle, true)  // the common case first: the same short key
        } else if Swift.min(fieldLength, keyLength) <= 8 {
          order = fieldLength &- keyLength  // same first bytes: the shorter comes first
        } else {
          guard let tied = tie(fields[middle]) else { return nil }
          order = tied
        }
        if order == 0 { return (middle, true) }
        if order < 0 { low = middle + 1 } else { high = middle }
      }
      return (low, false)
    }
  }

  /// The field's value, `.null` when absent. Setting `.null` removes the field; `_modify` works
  /// in place on an existing field (no copy of the value inside).
  public subscript(key: String) -> Value {
    get {
      let (position, found) = search(key)
      return found ? fields[position].value : .null
    }
    _modify {
      let (position, found) = search(key)
      if found {
        yield &fields[position].value
        if fields[position].value.isNull { fields.remove(at: position) }
      } else {
        var value = Value.null
        yield &value
        if !value.isNull { fields.insert(Field(key: key, value: value), at: position) }
      }
    }
  }

  /// Sets a field (`.null` removes it), as a plain function for hot paths.
  mutating func set(_ key: String, _ value: Value) {
    let (position, found) = search(key)
    if found {
      if value.isNull { fields.remove(at: position) } else { fields[position].value = value }
    } else if !value.isNull {
      fields.insert(Field(key: key, value: value), at: position)
    }
  }

  /// Sets the field a `search` found at `position` (`found`: the key is there), without
  /// searching again (`.null` removes it).
  mutating func set(at position: Int, found: Bool, key: String, _ value: Value) {
    if found {
      if value.isNull { fields.remove(at: position) } else { fields[position].value = value }
    } else if !value.isNull {
      fields.insert(Field(key: key, value: value), at: position)
    }
  }

  /// The key after `key` in order (the first key for nil); for `__pairs`.
  func key(after key: String?) -> String? {
    guard let key else { return fields.first?.key }
    let (position, found) = search(key)
    let next = found ? position + 1 : position
    return next < fields.count ? fields[next].key : nil
  }
}

/// A key's first 8 UTF-8 bytes as a big-endian integer, zero-padded: integer order is byte order
/// (keys that differ only in trailing NUL bytes tie here and are told apart by their lengths).
@inline(__always)
func utf8KeyPrefix(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  guard let base = bytes.baseAddress else { return 0 }
  return utf8KeyPrefix(base, bytes.count)
}

/// `utf8KeyPrefix` of the `count` bytes at `base`.
@inline(__always)
func utf8KeyPrefix(_ base: UnsafeRawPointer, _ count: Int) -> UInt64 {
  // Whole loads rather than a byte loop: this runs on every field access. Below 8 bytes, loads
  // that may overlap (4 + 4 for 4…7 bytes, 1 + 1 + 1 for 1…3): a byte read twice lands on the
  // same bits both times, so or-ing them is exact, and each size class takes one branch (not
  // one per bit of the count, as 4 + 2 + 1 pieces did).
  if count >= 8 { return UInt64(bigEndian: base.loadUnaligned(as: UInt64.self)) }
  if count >= 4 {
    let head = UInt64(UInt32(bigEndian: base.loadUnaligned(as: UInt32.self))) << 32
    let tail = UInt64(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
    return head | tail << UInt64(truncatingIfNeeded: 64 &- 8 &* count)
  }
  guard count > 0 else { return 0 }
  let middle = count >> 1
  let first = UInt64(base.load(as: UInt8.self)) << 56
  let second = UInt64(base.load(fromByteOffset: middle, as: UInt8.self)) << UInt64(truncatingIfNeeded: 56 &- 8 &* middle)
  let last = UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self)) << UInt64(truncatingIfNeeded: 64 &- 8 &* count)
  return first | second | last
}

/// Orders keys by their UTF-8 bytes (negative, zero, positive like `memcmp`). A byte loop rather
/// than `memcmp`: keys are short, and a call costs more than comparing them.
@inline(__always)
func compareUTF8(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Int {
  if let order = string.utf8.withContiguousStorageIfAvailable({ stored in compareBytes(UnsafeRawBufferPointer(stored), bytes) }) {
    return order
  }
  return Array(string.utf8).withUnsafeBytes { compareBytes($0, bytes) }
}

@inline(__always)
private func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
  let common = min(a.count, b.count)
  var index = 0
  while index < common {
    let x = a.load(fromByteOffset: index, as: UInt8.self)
    let y = b.load(fromByteOffset: index, as: UInt8.self)
    if x != y { return Int(x) - Int(y) }
    index &+= 1
  }
  return a.count - b.count
}

/// Sorting order of record keys (see `ValueRecord`).
func keyPrecedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
