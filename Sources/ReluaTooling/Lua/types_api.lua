-- relua's API: the feature DSL (`require "relua"`, the global `relua`), stores, test stores,
-- dependencies, and what `relua test` gives test files (busted's blocks, luassert, spies).
-- Reference: docs/DSL.md.

---A payload type in a feature's `actions`: `{}` (none) or a type name; `"{T}"` is a list of T,
---`"T?"` an optional T (`"{integer}"`, `"string?"`).
---@alias relua.PayloadType table|"integer"|"float"|"number"|"string"|"boolean"|"table"|"any"|string

---A cancellation id of effects.
---@alias relua.CancelID string|number|boolean

---What an effect sends its actions with: `send("loaded", result)` (a no-op once it is cancelled).
---@alias relua.Send fun(action: string, payload?: any)

---An action handler of `relua.on`: `function(state, payload, deps, id)`; `id` is the first
---element id on the action's path (forEach, stack). It changes the state in place and may return an effect.
---@alias relua.Handler fun(state: any, payload: any, deps: relua.Deps, id: any): relua.Effect?

---An action as a plain `reduce` function and `store:receive(predicate)` see it.
---@class relua.ActionRecord
---@field name string the action's path with ids: `"rows[id=42].toggle"`
---@field pattern string the path without ids: `"rows.toggle"` (a `relua.on` key)
---@field payload any
---@field id any the first element id on the path, if any

---What `relua.feature "Name"` takes (any other field is an error).
---@class relua.FeatureSpec
---@field state? table|(fun(deps: relua.Deps): table) the initial state: a table (copied for each store) or a function returning one
---@field actions? table<string, relua.PayloadType|relua.ActionGroup> the feature's own actions: `name = {}` or `name = "type"`, groups `name = relua.group { … }`
---@field compose? relua.Composition[] children and the places of its own reducers, in order
---@field bindable? string[] fields that `binding.<field>` actions may set (and `binding.<field>.<field>…` below a record, `binding.<field>[id=…].<field>` in a list's element)
---@field reduce? relua.Handlers|(fun(state: table, action: relua.ActionRecord, deps: relua.Deps): relua.Effect?) `relua.on { … }` or one function
---@field view? (fun(state: table): string|relua.ui.Node) what the screen shows: text, or a tree of `relua.ui` nodes
---@field dependencies? table<string, any> dependencies the feature gives its subtree (as a store's `deps`)
---@field shared? table<string, relua.SharedKey> fields of the state bound to shared keys (`{ items = relua.fileStorage("items.json") }`)
---@field task? string one of its own actions (no payload): what a host sends when the feature's screen appears, its effects cancelled when the screen goes (TCA's `.task { await store.send(.onTask).finish() }`; a test sends it by hand)

---A feature, made by `relua.feature "Name" { … }`.
---@class relua.Feature
---@field name string
---@field state table|fun(deps: relua.Deps): table
---@field actions table<string, relua.PayloadType>
---@field compose relua.Composition[]
---@field bindable string[]
---@field reduce? relua.Handlers|(fun(state: table, action: relua.ActionRecord, deps: relua.Deps): relua.Effect?)
---@field view? (fun(state: table): string|relua.ui.Node) what the screen shows: text, or a tree of `relua.ui` nodes
---@field dependencies? table<string, any>
---@field shared? table<string, relua.SharedKey>
---@field task? string the action sent when its screen appears
---@field definedAt string where `relua.feature` was called (`file:line`)
local Feature = {}

---The feature's initial state: its `state` function called with `deps`, or a copy of its table
---(for a parent's state: `counter = Counter:initial(deps)`).
---@param deps? relua.Deps
---@return table
function Feature:initial(deps) end

---The same feature, giving these dependencies to itself and its subtree, for one place in a
---composition: `relua.scope("preview", Weather:withDependencies { weather = stub })`.
---@param given table<string, any>
---@return relua.UntypedFeature
function Feature:withDependencies(given) end

---A feature as `relua.feature` makes it, without types of its own: those come with `require` of
---a module `relua types` saw. Its stores are the plain `relua.Store` and `relua.TestStore` (a
---typed feature is not one of these, so `relua.Store` of it gives only its typed store). A
---script may give it fields of its own (helpers, the children it composes).
---@class relua.UntypedFeature: relua.Feature
---@field [string] any

---Action handlers (`relua.on { … }`), by action pattern: `increment`, `["counter.playNext"]`,
---`["rows.onAppear"]` (element actions without ids), `["destination.dismiss"]`.
---@class relua.Handlers
---@field [string] relua.Handler

---An entry of `compose`: a child (`relua.scope`, `optional`, `forEach`, `presents`, `stack`) or
---the place of the feature's own logic (`relua.own`, `relua.reduce`, `relua.onChange`).
---@class relua.Composition

---A feature, or where the child can be absent a function returning one (a feature containing itself).
---@alias relua.FeatureReference relua.Feature|fun(): relua.Feature

---An alert's or confirmation dialog's button actions (`relua.alert { confirm = {} }`).
---@class relua.Alert

---The state of an alert or a confirmation dialog (TCA's `AlertState`).
---@class relua.AlertState
---@field title string
---@field message? string
---@field buttons? relua.AlertButton[]
---@field [string] any fields of the feature's own (what a retry needs)

---@class relua.AlertButton
---@field label string
---@field action? string the button's action (`"confirm"`); a button without one only dismisses

---An effect: what a handler returns (or nothing). Made with `relua.Effect`'s functions.
---@class relua.Effect
local Effect = {}

---Cancellable by `Effect.cancel(id)`; `cancelInFlight` cancels the one running with this id first.
---@param id relua.CancelID
---@param cancelInFlight? boolean
---@return relua.Effect
function Effect:cancellable(id, cancelInFlight) end

---Runs after `seconds` of quiet: each new one with this id cancels the previous.
---Deprecated as in TCA 1.25: sleep first in the run and cancel in flight,
---`Effect.run(function(send) deps.clock.sleep(s) … end):cancellable(id, true)`.
---@deprecated
---@param id relua.CancelID
---@param seconds number from 0 to 9e9
---@return relua.Effect
function Effect:debounce(id, seconds) end

---At most one per `seconds`; `latest` keeps the last one rather than the first.
---Deprecated as in TCA 1.25: keep the time of the last one in state and decide in the reducer.
---@deprecated
---@param id relua.CancelID
---@param seconds number from 0 to 9e9
---@param latest? boolean
---@return relua.Effect
function Effect:throttle(id, seconds, latest) end

---Both at the same time.
---@param other relua.Effect
---@return relua.Effect
function Effect:merge(other) end

---One after the other.
---Deprecated as in TCA 1.25: do the steps one after the other in one `Effect.run`.
---@deprecated
---@param other relua.Effect
---@return relua.Effect
function Effect:concatenate(other) end

---Turns an error of an `Effect.run` into actions.
---@param handler fun(message: any, send: relua.Send)
---@return relua.Effect
function Effect:catch(handler) end

---`relua.Effect`: the effects a handler can return.
---@class relua.EffectLib
---@field none relua.Effect nothing
local EffectLib = {}

---An action handled in the same send, after this one (first in, first out).
---@param action string
---@param payload? any
---@return relua.Effect
function EffectLib.send(action, payload) end

---A coroutine: it may await dependencies (`deps.clock.sleep`, `deps.github.search`) and
---`send(action[, payload])` the feature's own actions. `name` (TCA's `Effect.run(name:)`) names it
---in `:cancel`, the inspector, warnings and a test's "still running" failure.
---@param fn fun(send: relua.Send)
---@param options? { catch?: fun(message: any, send: relua.Send), name?: string }
---@return relua.Effect
function EffectLib.run(fn, options) end

---Effects at the same time (also a list of them).
---@param ... relua.Effect
---@return relua.Effect
---@overload fun(effects: relua.Effect[]): relua.Effect
function EffectLib.merge(...) end

---Effects one after the other (also a list of them).
---Deprecated as in TCA 1.25: do the steps one after the other in one `Effect.run`.
---@deprecated
---@param ... relua.Effect
---@return relua.Effect
---@overload fun(effects: relua.Effect[]): relua.Effect
function EffectLib.concatenate(...) end

---Cancels the feature's effects with this id (and its descendants').
---@param id relua.CancelID
---@return relua.Effect
function EffectLib.cancel(id) end

---The clock of the store running the code (`deps.clock`).
---@class relua.Clock
local Clock = {}

---Async (inside `Effect.run` or a test body): suspends for `seconds` on the store's clock.
---@param seconds number from 0 to 9e9
function Clock.sleep(seconds) end

---A stream ticking 1, 2, 3… every `seconds`: `for n in deps.clock.timer(1) do … end`.
---@param seconds number
---@return fun(): integer
function Clock.timer(seconds) end

---`deps.websocket`: WebSocket connections kept by id.
---@class relua.WebSocketLib
local WebSocketLib = {}

---Async: connects to a `ws://` URL and keeps the socket under `id` (connecting an id again
---closes the socket before). Hold it in a `<close>` variable.
---@param id string
---@param url string
---@return relua.WebSocket
function WebSocketLib.connect(id, url) end

---Async: sends through the socket kept under `id`.
---@param id string
---@param text string
---@param kind? "text"|"binary"
function WebSocketLib.send(id, text, kind) end

---A WebSocket connection (`deps.websocket.connect`).
---@class relua.WebSocket
---@field id string
---@field url string
local WebSocket = {}

---Async: sends a message (`"binary"`: the bytes as they are).
---@param text string
---@param kind? "text"|"binary"
function WebSocket:send(text, kind) end

---The messages the server sends: `for message, kind in socket:receive() do … end` (ends when the server closes).
---@return fun(): string, "text"|"binary"
function WebSocket:receive() end

function WebSocket:close() end

---`deps.github`: GitHub's repository search (a plug-in the `relua` command registers).
---@class relua.GitHub
local GitHub = {}

---Async: one page of a repository search; `nil, err` when it fails.
---@param query { q: string, page?: integer, per_page?: integer, sort?: string, language?: string }
---@return relua.GitHubSearchResult? result
---@return relua.GitHubError? err
function GitHub.search(query) end

---@class relua.GitHubSearchResult
---@field total_count integer
---@field incomplete_results boolean
---@field items relua.GitHubRepository[]

---A repository (fields GitHub sends as null are absent).
---@class relua.GitHubRepository
---@field id integer
---@field name string
---@field full_name string
---@field owner? { login: string, avatar_url?: string }
---@field description? string
---@field html_url string
---@field stargazers_count integer
---@field forks_count integer
---@field language? string

---@class relua.GitHubError
---@field kind "transport"|"timeout"|"http"|"rateLimited"|"decoding"|"cancelled"
---@field message string a sentence for the user
---@field status? integer
---@field resetAt? number
---@field retryAfter? number

---The dependencies: the third argument of handlers, `state(deps)`'s, and `relua.deps`
---(each field reads the store running the code).
---@class relua.Deps
---@field clock relua.Clock
---@field websocket relua.WebSocketLib
---@field github relua.GitHub
---@field [string] any a dependency a script declares (`relua.dependency`) or the host program registers
local Deps = {}

---A UUID string (`"00000000-0000-0000-0000-000000000001"` with `uuid = "incrementing"`).
---@return string
function Deps.uuid() end

---An integer from `low` to `high`.
---@param low integer
---@param high integer
---@return integer
function Deps.random(low, high) end

---Seconds since 1970.
---@return number
function Deps.date() end

---A stream of the values posted under `name` (`store:post(name, value)`):
---`for value in deps.notifications("saved") do … end` (a post without a value arrives as `true`).
---@param name string
---@return fun(): any
function Deps.notifications(name) end

---Closes the presented feature running the effect (its parent receives `….dismiss` or `….popFrom`).
function Deps.dismiss() end

---What stores and test stores take as `deps = { … }`.
---@class relua.DepsOptions
---@field uuid? "incrementing"|{ incrementing: integer }|"live"|string|string[] `{ incrementing = n }` starts at `relua.uuid(n)`; a fixed UUID, or a list returned in turn
---@field random? { seed: integer }|integer[]|"live"
---@field clock? "test"|"immediate"|"live"
---@field date? number|"live" seconds since 1970
---@field stackElementID? integer the first id `relua.push` gives (0 by default)
---@field websocket? "live"
---@field github? (fun(query: table): table?, table?)|table|"live"
---@field [string] any a declared or registered dependency: a stub (a function, or a table of some members) or `"live"`

---What `relua.Store` and `relua.TestStore` take.
---@class relua.StoreOptions
---@field deps? relua.DepsOptions
---@field state? table|(fun(deps: relua.Deps): table) a state to start from (checked against the feature's composition); a function is called with the store's dependencies (a test store's: TCA's initialState under withDependencies)
---@field json? string a state to start from, as JSON
---@field limits? { actionsPerSend?: integer, effectsInFlight?: integer }
---@field presented? boolean `relua.Store` only: the root runs as a presented screen, its `deps.dismiss()` dismisses the store

---A screen on top of another (`store:screens()`), the last on top.
---@class relua.Screen
---@field feature string
---@field place string
---@field prefix string
---@field state table

---A store (`relua.Store(Feature, options)`; `store` in the REPL).
---@class relua.Store
local Store = {}

---Runs an action, a transaction: raises the reducer's error (the state unchanged) or a bad-action error.
---@param action string `"increment"`, `"counter.setCount"`, `"rows[id=42].toggle"`
---@param payload? any
---@return relua.StoreTask
function Store:send(action, payload) end

---A plain copy of the state, or of the value at a path (`"counter.count"`, `"rows[2]"`, `"rows[id=42].name"`).
---@param path? string
---@return any
function Store:state(path) end

---What is on screen, from the state alone; the last on top.
---@return relua.Screen[]
function Store:screens() end

---The top screen's `view(state)` text.
---@return string?
function Store:view() end

---Calls `onChange(value)` after each send that changes the projection (a state path or a function).
---@param projection string|fun(state: any): any
---@param onChange fun(value: any)
function Store:observe(projection, onChange) end

---The state as JSON (a store takes it back with `json = …`).
---@return string
function Store:json() end

---The top screen's view as a tree, as JSON with sorted keys (actions as paths from the root); nil without a view.
---@return string?
function Store:viewJSON() end

---The runtime warnings so far.
---@return string[]
function Store:warnings() end

---A store on one child (`"counter"`, `"rows[id=42]"`): `send` and `state` relative to it.
---@param place string
---@return relua.ScopedStore
function Store:scope(place) end

---Async: waits until no effect is running.
function Store:wait() end

---Whether the store dismissed itself (`presented = true`, its root's `deps.dismiss()`): its effects
---were cancelled and later sends are refused with a warning. A method: `store.isDismissed` is the test store's.
---@return boolean
function Store:isDismissed() end

---Posts to the store's notifications (`deps.notifications(name)`); returns how many loops it reached.
---@param name string
---@param value? any
---@return integer
function Store:post(name, value) end

---A store on one child of another (`store:scope(place)`).
---@class relua.ScopedStore
local ScopedStore = {}

---@param action string relative to the child
---@param payload? any
---@return relua.StoreTask
function ScopedStore:send(action, payload) end

---@param path? string relative to the child
---@return any
function ScopedStore:state(path) end

---@param place string
---@return relua.ScopedStore
function ScopedStore:scope(place) end

---The effects a `store:send` started (TCA's `StoreTask`).
---@class relua.StoreTask
local StoreTask = {}

---Cancels them: they stop, and their actions never arrive.
function StoreTask:cancel() end

---Async: waits until they have finished; with `seconds`, at most that long, returning whether they did.
---@param seconds? number
---@return boolean?
function StoreTask:finish(seconds) end

---@return boolean
function StoreTask:isCancelled() end

---An exhaustive test store (`relua.TestStore(Feature, options)`), with TCA's semantics.
---@class relua.TestStore
---@field isDismissed boolean whether the root feature dismissed itself (`deps.dismiss()` from its effect): its effects were skipped, a later send fails
local TestStore = {}

---Sends an action; `expect(state)` turns a copy of the previous state into the expected one
---(omit it when nothing changes). Returns once every effect it started has run to its first await.
---@param action string
---@param payload? any
---@param expect? fun(state: table)
---@return relua.TestStoreTask
function TestStore:send(action, payload, expect) end

---The next action an effect sent: by name (any payload), with its exact payload, or by name and
---`check(payload)`; or the next one for which `predicate(action)` is truthy.
---@param action string
---@param payload? any a payload, or a function `check(payload)`
---@param expect? fun(state: table)
---@overload fun(self: relua.TestStore, predicate: (fun(action: relua.ActionRecord): any), expect?: fun(state: table))
function TestStore:receive(action, payload, expect) end

---Advances the test clock (`deps = { clock = "test" }`) by `seconds`, running what falls due on
---the way; without `seconds`, until no sleep is left.
---@param seconds? number
function TestStore:advance(seconds) end

---Posts to the store's notifications, one waiting loop at a time; returns how many it reached.
---@param name string
---@param value? any
---@return integer
function TestStore:post(name, value) end

---Waits for effects (1 s by default, only for those waiting on a live dependency) and fails for
---those still running. It does not move the clock.
---@param seconds? number
function TestStore:finish(seconds) end

---Forgets the actions received and not asserted.
function TestStore:skipReceivedActions() end

---Forgets the effects still running.
function TestStore:skipInFlightEffects() end

---Cancels the n-th effect this store started (1 for the first, in the order they started),
---as a host's cancel of one effect does (the REPL's `:cancel N`); fails if it is not running.
---@param n integer
function TestStore:cancelEffect(n) end

---Exhaustive (`true`, the default) or not; `{ showSkipped = true }` notes what a
---non-exhaustive store skipped.
---@param on boolean
---@param options? { showSkipped?: boolean }
function TestStore:exhaustive(on, options) end

---The notes of skipped assertions so far, each starting with its script line.
---@return string[]
function TestStore:skipped() end

---@param path? string
---@return any
function TestStore:state(path) end

---The places on screen, the last on top.
---@return string[]
function TestStore:screens() end

---The top screen's `view(state)` text, as the REPL draws it.
---@return string?
function TestStore:view() end

---The top screen's view as a tree, as JSON with sorted keys; nil without a view.
---@return string?
function TestStore:viewJSON() end

---@return string[]
function TestStore:warnings() end

---Asserts the state now, without an action (TCA's `store.assert { … }`): `expect(state)` turns
---the state asserted last into the one expected, exhaustively, with the usual diff on a mismatch.
---@param expect fun(state: table)
function TestStore:assert(expect) end

---`"on"` or `"off"`, and whether skipped assertions are noted.
---@return "on"|"off"
---@return boolean showSkipped
function TestStore:exhaustivity() end

---Runs `body` with exhaustivity `mode` (TCA's `withExhaustivity(.off) { … }`), then restores the
---store's own, also when `body` raises; returns what `body` returns.
---@param mode "on"|"off"|boolean
---@param options? { showSkipped?: boolean }
---@param body fun(): ...
---@return ...
---@overload fun(self: relua.TestStore, mode: "on"|"off"|boolean, body: fun(): ...): ...
function TestStore:withExhaustivity(mode, options, body) end

---The effects a test store's `send` started (TCA's `TestStoreTask`).
---@class relua.TestStoreTask
local TestStoreTask = {}

---Async: cancels them; their actions never arrive.
function TestStoreTask:cancel() end

---Async: waits for them; fails the test when one still runs after `seconds` (the store's 1 s by default).
---@param seconds? number
function TestStoreTask:finish(seconds) end

---@return boolean
function TestStoreTask:isCancelled() end

---`relua.dependency "name" { live = …, test = … }`: what a dependency declaration takes.
---@class relua.DependencySpec
---@field live function|table the live value: a function, or a table of functions and values
---@field test? function|table the value test stores use when a test gives none

---A recorded session's dependency call (what `:record` writes for `relua.recordedCalls`).
---@class relua.RecordedCall
---@field [1] string the dependency
---@field [2] string the member (`""` for a dependency that is one function)
---@field arguments table
---@field results? table
---@field seconds? number
---@field cancelled? boolean

---`relua.testing.<name>()`: test helpers the program running the tests registered.
---@class relua.TestingLib
---@field [string] fun(...: any): any
local TestingLib = {}

---The URL of a WebSocket echo server on loopback, started on first use (`relua test` only).
---@return string
function TestingLib.websocketEcho() end

---The relua feature DSL: `require "relua"`, also the global `relua` in relua run, test and repl.
---`relua.taskGroup`'s handle: spawns the group's children.
---@class relua.TaskGroup
local Group = {}

---A child of the group: it runs concurrently with its siblings, as a part of the effect, from
---when the spawning coroutine next suspends.
---@param child fun()
function Group:spawn(child) end

---@class relualib
---@field Effect relua.EffectLib
---@field deps relua.Deps the dependencies of the store running the code (for code outside a handler, such as a test's stub)
---@field own relua.Composition in `compose`: where the feature's own reducer runs among its children
---@field stateOnly relua.StateOnly a kind of a stack or destination that is only state (`relua.stateOnly "Meeting"` names it)
---@field testing relua.TestingLib
relua = {}

---Declares a feature: `relua.feature "Name" { state = …, actions = …, reduce = … }`. Where a
---script requires the module of a feature `relua types` saw, the feature has its own types.
---@param name string
---@return fun(spec: relua.FeatureSpec): relua.UntypedFeature
function relua.feature(name) end

---Async, inside an `Effect.run` (TCA's `withTaskGroup`): runs `body(group)`, then waits for
---every child it spawned (`group:spawn(fn)`). A child's error cancels its siblings and is raised
---here with the child's `file:line`; cancelling the effect cancels the children.
---@param body fun(group: relua.TaskGroup)
function relua.taskGroup(body) end

---Action handlers: `relua.on { increment = function(state, payload, deps, id) … end, ["counter.playNext"] = … }`.
---@param handlers table<string, relua.Handler>
---@return relua.Handlers
function relua.on(handlers) end

---A child whose state is at `key`, with actions `key.…`; through a lens, a derived one
---(`get(state)` builds its state, `set(state, child)` writes it back).
---@param key string
---@param feature relua.Feature
---@param lens? { get: (fun(state: table): table), set: fun(state: table, child: table) }
---@return relua.Composition
function relua.scope(key, feature, lens) end

---A child whose state at `key` may be nil (TCA's `ifLet`).
---@param key string
---@param feature relua.FeatureReference
---@return relua.Composition
function relua.optional(key, feature) end

---An identified collection at `key` of the child's states, with actions `key[id=ID].…`.
---@param key string
---@param feature relua.FeatureReference
---@return relua.Composition
function relua.forEach(key, feature) end

---A destination presented at `key`: one of several kinds (`{ counter = Counter, alert =
---relua.alert { … } }`, state `{ <kind> = state }`), or one feature or alert (its state as it is).
---Actions `key.<kind>.…` (or `key.…`) and `key.dismiss`.
---@param key string
---@param kinds relua.FeatureReference|relua.Alert|relua.StateOnly|table<string, relua.FeatureReference|relua.Alert|relua.StateOnly>
---@return relua.Composition
function relua.presents(key, kinds) end

---A navigation stack at `key` of `{ id = n, <kind> = state }` elements, with actions
---`key[id=ID].<kind>.…`, `key.popFrom` and `key.push`.
---@param key string
---@param kinds table<string, relua.FeatureReference|relua.Alert|relua.StateOnly>
---@return relua.Composition
function relua.stack(key, kinds) end

---In `compose`, one more reducer of the feature's own, at its place (TCA's `Reduce` among `Scope`s).
---@param reduce relua.Handlers|table<string, relua.Handler>|fun(state: table, action: relua.ActionRecord, deps: relua.Deps): relua.Effect?
---@return relua.Composition
function relua.reduce(reduce) end

---In `compose`, TCA's `onChange(of:)`: `handler(state, old, new, deps, action)` runs when the
---value at a state path (or what a function of the state returns) changed.
---@param of string|fun(state: table): any
---@param handler fun(state: table, old: any, new: any, deps: relua.Deps, action: relua.ActionRecord): relua.Effect?
---@return relua.Composition
function relua.onChange(of, handler) end

---An alert's button actions (the parent handles them; the alert is dismissed after any of them).
---@param actions? table<string, relua.PayloadType>
---@return relua.Alert
function relua.alert(actions) end

---A confirmation dialog's button actions (TCA's `ConfirmationDialogState`; it behaves as an alert).
---@param actions? table<string, relua.PayloadType>
---@return relua.Alert
function relua.confirmationDialog(actions) end

---A group of a feature's actions (TCA's `case delegate(Delegate)`), in `actions`:
---`delegate = relua.group { startMeeting = {} }` is the action `"delegate.startMeeting"`; groups nest.
---@class relua.ActionGroup

---@param actions table<string, relua.PayloadType|relua.ActionGroup>
---@return relua.ActionGroup
function relua.group(actions) end

---A kind of a stack or a destination that is only state (TCA's `case meeting(Meeting, syncUp:)`):
---pushed, presented, viewed and popped as any kind, with no reducer; an action sent to it is an
---error. `relua.stateOnly "Meeting"` names it (messages, screens); `view` gives its screen's text.
---@class relua.StateOnly
---@overload fun(name: string): relua.StateOnly
---@overload fun(spec: { name: string, view?: fun(state: table): string }): relua.StateOnly

---Marks records unique by their `id` field as an identified collection.
---@generic T: table
---@param t? T
---@return T
function relua.identified(t) end

---A shared key (TCA's `@Shared`): where a shared value lives. Bind a field to it with a
---feature's `shared = { field = key }`.
---@class relua.SharedKey
---@field kind string `inMemory`, `fileStorage`, `appStorage`, or a kind registered from Swift
local SharedKey = {}
---The element of a shared identified collection whose `id` is the holder's own `id`.
---@return relua.SharedKey
function SharedKey:element() end
---A field (or a path of fields, `"a.b"`) of a shared record.
---@param path string
---@return relua.SharedKey
function SharedKey:field(path) end
---A `SharedReader`: holders see the value and cannot write it.
---@return relua.SharedKey
function SharedKey:readOnly() end
---The store's value (a plain table), in a reducer or an effect; outside a store, the runtime's.
---@return any
function SharedKey:get() end
---In an effect: sets the value (every holder sees it; it is saved).
---@param value any
function SharedKey:set(value) end
---In an effect: `fn(value)` changes the value in place or returns a new one; it cannot await.
---@param fn fun(value: any): any
---@return any
function SharedKey:withLock(fn) end
---Why the stored value could not be read (the default is used), or nil.
---@return string?
function SharedKey:loadError() end
---Why the last save failed, or nil.
---@return string?
function SharedKey:saveError() end

---A value shared by the stores of one runtime, stored nowhere (each test store has its own).
---@param name string
---@return relua.SharedKey
function relua.inMemory(name) end
---A value kept as a JSON file (relative to the script root; inside the sandbox's roots).
---@param path string
---@return relua.SharedKey
function relua.fileStorage(path) end
---A small value in the app's key–value file.
---@param name string
---@return relua.SharedKey
function relua.appStorage(name) end
---A key of a kind a Swift program registered (`ReluaRuntime.registerSharedKey`).
---@param kind string
---@param argument any
---@return relua.SharedKey
function relua.sharedKey(kind, argument) end
---Whether `value` is a shared key.
---@param value any
---@return boolean
function relua.isSharedKey(value) end

---Pushes an element (`{ <kind> = state }`) onto a stack; returns its id, the store's next one.
---@param stack table
---@param element table
---@return integer
function relua.push(stack, element) end

---@param value any
---@return boolean
function relua.isFeature(value) end

---@param value any
---@return boolean
function relua.isEffect(value) end

---Declares a dependency features reach as `deps.<name>`: `relua.dependency "weather" { live = …, test = … }`.
---@param name string an identifier
---@return fun(spec: relua.DependencySpec)
function relua.dependency(name) end

---A feature written in Swift that the host program registered (`ReluaSwiftFeature`).
---@param name string
---@return relua.UntypedFeature
function relua.swiftFeature(name) end

---The n-th UUID of `uuid = "incrementing"`: `relua.uuid(1)` is `"00000000-0000-0000-0000-000000000001"`.
---@param n integer
---@return string
function relua.uuid(n) end

---JSON text as Lua tables.
---@param text string
---@return any
function relua.fromJSON(text) end

---A value as JSON text.
---@param value any
---@param pretty? boolean
---@return string
function relua.toJSON(value, pretty) end

---Stubs replaying a recorded session's dependency calls, by dependency: `deps = { github = calls.github }`.
---@param calls relua.RecordedCall[]
---@return table<string, any>
function relua.recordedCalls(calls) end

---A node of a view's tree (docs/DSL.md, "Views"): built by `relua.ui`, drawn by the REPL as text
---and by a Swift program as `ReluaViewNode`.
---@class relua.ui.Node
---@field kind "text"|"vstack"|"hstack"|"button"|"link"|"textField"|"toggle"|"stepper"|"picker"|"list"|"section"|"image"|"scope"|"toolbar"|"replHint"

---A field a control is bound to: `relua.ui.binding.title`, `relua.ui.binding.syncUp.title`, a
---field of a list's element by its id: `relua.ui.binding.syncUp.attendees:at(id).name`.
---@class relua.ui.Binding
---@field [string] relua.ui.Binding
---@field at fun(self: relua.ui.Binding, id: integer|string): relua.ui.Binding the element of a bound list with this id (`binding.list[id=…]`)

---A child of a stack or section: a node, text (a text node), or false (an empty place).
---@alias relua.ui.Child relua.ui.Node|string|false

---The view DSL: a feature's `view(state)` returns one of these trees (or text).
---@class relua.ui
---@field binding relua.ui.Binding the root of bindings: `binding.title` sets `title` with `binding.title` actions
relua.ui = {}

---Text.
---@param text string
---@return relua.ui.Node
function relua.ui.text(text) end

---Children one below the other.
---@param children relua.ui.Child[]
---@return relua.ui.Node
function relua.ui.vstack(children) end

---Children side by side.
---@param children relua.ui.Child[]
---@return relua.ui.Node
function relua.ui.hstack(children) end

---A button that sends `action` (a path from this screen) with `payload`; the REPL shows `[+ :increment]`.
---@param label string
---@param action string
---@param payload? any
---@return relua.ui.Node
function relua.ui.button(label, action, payload) end

---A link: sends an action whose reducer pushes or presents a screen.
---@param label string
---@param action string
---@param payload? any
---@return relua.ui.Node
function relua.ui.link(label, action, payload) end

---A text field bound to a text field of the state.
---@param label string
---@param binding relua.ui.Binding
---@return relua.ui.Node
function relua.ui.textField(label, binding) end

---A switch bound to a boolean field.
---@param label string
---@param binding relua.ui.Binding
---@return relua.ui.Node
function relua.ui.toggle(label, binding) end

---An integer field, one up or down.
---@param label string
---@param binding relua.ui.Binding
---@return relua.ui.Node
function relua.ui.stepper(label, binding) end

---One of `options` for a text field.
---@param label string
---@param binding relua.ui.Binding
---@param options string[]
---@return relua.ui.Node
function relua.ui.picker(label, binding, options) end

---Identified rows (each with an `id`), each drawn by `render`; with `key` (a `forEach`'s), a row's
---actions are its element's (`todos[id=3].toggle`).
---@generic Row
---@param rows Row[]
---@param render fun(row: Row, position: integer): relua.ui.Node|string
---@param key? string
---@return relua.ui.Node
function relua.ui.list(rows, render, key) end

---The rows of the forEach child at `key` (`relua.forEach(key, feature)`), each drawn by
---`feature.view(element)`, its actions the element's; only rows whose element changed are drawn again.
---@param key string
---@param feature relua.Feature
---@return relua.ui.Node
function relua.ui.forEach(key, feature) end

---A titled group.
---@param title string
---@param children relua.ui.Child[]
---@return relua.ui.Node
function relua.ui.section(title, children) end

---Text for the REPL only: what to type there (`(=store:post("userDidTakeScreenshot"))`). The REPL
---shows it as text; a page or a native view leaves it out.
---@param text string
---@return relua.ui.Node
function relua.ui.replHint(text) end

---An image by URL; a terminal shows its alt text.
---@param url string
---@param alt string
---@return relua.ui.Node
function relua.ui.image(url, alt) end

---A child feature's view in its parent's: its actions and bindings are the child's at `key`.
---@param key string
---@param node relua.ui.Node|string
---@return relua.ui.Node
function relua.ui.scope(key, node) end

---A bar of buttons (TCA's `.toolbar`): `relua.ui.toolbar { … }`, this screen's own; with a place
---first (`"destination.add"`), in a presenter's view: the bar of the screen it presents there.
---@param screen string|relua.ui.Child[]
---@param children? relua.ui.Child[]
---@return relua.ui.Node
function relua.ui.toolbar(screen, children) end

---Whether `value` is a node of relua.ui.
---@param value any
---@return boolean
function relua.ui.isNode(value) end

---A state view as a plain table (a view is valid only during the handler call that received it).
---@generic T
---@param view T
---@return T
function copy(view) end

-- What `relua test` gives test files (*_test.lua, *_spec.lua).

---Declares a test; its body may await (a test store, `deps.clock.sleep`).
---@param name string
---@param fn fun()
function test(name, fn) end

---busted's `it`: a test.
---@param name string
---@param fn fun()
function it(name, fn) end

---busted's `spec`: a test.
---@param name string
---@param fn fun()
function spec(name, fn) end

---A block of tests; names join with spaces into the tests' full names.
---@param name string
---@param fn fun()
function describe(name, fn) end

---busted's `context`: a block of tests.
---@param name string
---@param fn fun()
function context(name, fn) end

---A block whose changes to `_G` and `package.loaded` are undone after it.
---@param name string
---@param fn fun()
function insulate(name, fn) end

---A block whose changes to `_G` and `package.loaded` stay for the blocks after it.
---@param name string
---@param fn fun()
function expose(name, fn) end

---A skipped test (`pending(name)`); inside a running test, `pending(reason)` ends it as skipped.
---@param name string
---@param fn? fun()
function pending(name, fn) end

---A test declared and skipped.
---@param name string
---@param fn? fun()
function skip(name, fn) end

---In a test: runs after its body, passed, failed or pending (the last call wins).
---@param fn fun()
function finally(fn) end

---Runs once before each test of the block (in the test's own state).
---@param fn fun()
function setup(fn) end

---Runs once after each test of the block (in the test's own state).
---@param fn fun()
function teardown(fn) end

---@param fn fun()
function strict_setup(fn) end

---@param fn fun()
function strict_teardown(fn) end

---@param fn fun()
function lazy_setup(fn) end

---@param fn fun()
function lazy_teardown(fn) end

---Runs before each test of the block and of the blocks inside it.
---@param fn fun()
function before_each(fn) end

---Runs after each test of the block and of the blocks inside it.
---@param fn fun()
function after_each(fn) end

---Deep equality of plain tables (`==` otherwise); fails at the caller's line.
---@generic T
---@param actual T
---@param expected any
---@param message? any
---@return T
function assert_equal(actual, expected, message) end

---`expect(x).to_be(y)` and the other checks.
---@param actual any
---@return relua.Expectation
function expect(actual) end

---@class relua.Expectation
---@field to_be (fun(expected: any, message?: any): relua.Expectation) deep equality
---@field to_equal (fun(expected: any, message?: any): relua.Expectation) deep equality
---@field not_to_be fun(unexpected: any, message?: any): relua.Expectation
---@field to_be_nil fun(): relua.Expectation
---@field to_be_truthy fun(): relua.Expectation
---@field to_contain (fun(text: string): relua.Expectation) plain text, not a pattern
---@field to_match fun(pattern: string): relua.Expectation
---@field to_error (fun(text?: string): relua.Expectation) the value is a function that raises (an error containing `text`)
---@field to_match_screen (fun(name?: string): relua.Expectation) the value is a store: its screen matches the snapshot in `__snapshots__/<test file>/` (written on the first run)

---luassert's `assert`: called, Lua's own `assert`; indexed, luassert's chains of modifiers and
---one assertion, split at `_` and `.`: `assert.are.same(expected, actual)`, `assert.is_not.Nil(v)`,
---`assert.has_no.errors(fn)`, `assert.spy(s).was.called(2)`.
---@class luassert
---@overload fun(v: any, message?: any, ...: any): any, any
---@field is luassert
---@field are luassert
---@field was luassert
---@field has luassert
---@field does luassert
---@field ["not"] luassert
---@field no luassert
---@field is_not luassert
---@field are_not luassert
---@field was_not luassert
---@field has_no luassert
---@field does_not luassert
---@field same (fun(expected: any, actual: any, message?: any)) deep equality
---@field equal (fun(expected: any, actual: any, message?: any)) `expected == actual`
---@field equals (fun(expected: any, actual: any, message?: any)) `expected == actual`
---@field near fun(expected: number, actual: number, tolerance: number, message?: any)
---@field True fun(value: any, message?: any)
---@field False fun(value: any, message?: any)
---@field Nil fun(value: any, message?: any)
---@field truthy fun(value: any, message?: any)
---@field falsy fun(value: any, message?: any)
---@field is_true fun(value: any, message?: any)
---@field is_false fun(value: any, message?: any)
---@field is_nil fun(value: any, message?: any)
---@field is_not_nil fun(value: any, message?: any)
---@field is_truthy fun(value: any, message?: any)
---@field is_falsy fun(value: any, message?: any)
---@field is_number fun(value: any, message?: any)
---@field is_string fun(value: any, message?: any)
---@field is_table fun(value: any, message?: any)
---@field is_function fun(value: any, message?: any)
---@field is_boolean fun(value: any, message?: any)
---@field is_userdata fun(value: any, message?: any)
---@field is_thread fun(value: any, message?: any)
---@field matches (fun(pattern: string, s: string|number, ...: any)) `s:find(pattern[, init[, plain]])`; the message is the first later argument neither a number nor a boolean
---@field match fun(pattern: string, s: string|number, ...: any)
---@field has_error (fun(fn: function, expected?: any, message?: any)) `fn` raises (an error `same` as `expected`)
---@field error fun(fn: function, expected?: any, message?: any)
---@field errors fun(fn: function, expected?: any, message?: any)
---@field error_matches (fun(fn: function, pattern: string, ...: any): ...) `[init[, plain]]` and the message as `matches`; returns the captures
---@field unique (fun(list: table, ...: any)) no two values `==` (with a `deep` of true, `same`); then `deep` and the message, in either order
---@field message (fun(message: any): luassert) a custom message for the assertion that follows
---@field spy (fun(s: luassert.spy|function): luassert.spyAssertion) a spy, or a function `spy.on`/`stub` replaced
---@field stub fun(s: luassert.spy|function): luassert.spyAssertion
---@field screen (fun(store: relua.TestStore|relua.Store, name?: string): relua.TestStore|relua.Store) the store's screen matches the snapshot in `__snapshots__/<test file>/` (written on the first run)
---@field [string] any other chains (`are_not.same`, `is_not.True`…)
assert = {}

---Registers an assertion, a modifier or a matcher, as luassert does: `fn(state, arguments, level)`.
---@param namespace "assertion"|"modifier"|"matcher"
---@param name string
---@param fn fun(state: table, arguments: table, level: integer): any, table?
---@param positiveKey? string the `say` key of the failure message
---@param negativeKey? string the `say` key of the negated one's
function assert:register(namespace, name, fn, positiveKey, negativeKey) end

---@param namespace "assertion"|"modifier"|"matcher"
---@param name string
function assert:unregister(namespace, name) end

---The arguments (up to `arguments.n`) as failure messages show them.
---@param arguments table
---@return table
function assert:format(arguments) end

---`fn(value, fmtarg)` returns a value's text in every message, or nil to leave it to the next.
---@param fn fun(value: any, fmtarg?: any): string?
function assert:add_formatter(fn) end

---@param fn function
function assert:remove_formatter(fn) end

---@param name string
---@param value any
function assert:set_parameter(name, value) end

---@param name string
---@return any
function assert:get_parameter(name) end

---`assert.spy(s)`'s chain: `.was.called()`, `.was_not.called_with(…)`.
---@class luassert.spyAssertion
---@field was luassert.spyAssertion
---@field was_not luassert.spyAssertion
---@field ["not"] luassert.spyAssertion
---@field called (fun(times?: integer)) at least once, or exactly `times`
---@field called_at_least fun(times: integer)
---@field called_at_most fun(times: integer)
---@field called_more_than fun(times: integer)
---@field called_less_than fun(times: integer)
---@field called_with (fun(...: any)) some call's arguments `same` as these (or matching matchers)
---@field returned_with fun(...: any)
---@field [string] any

---What a stub answers: `.returns(…)` these values, or `.invokes(fn)` calls `fn` with the arguments.
---@class luassert.stubAnswer
---@field returns fun(...: any): luassert.spy
---@field invokes fun(fn: function): luassert.spy

---A spy or stub: callable, recording each call. `returns`, `invokes`, `by_default` and
---`on_call_with` are taken with a dot, as luassert's stubs take them (`s.returns(1)`).
---@class luassert.spy: luassert.stubAnswer
---@overload fun(...: any): ...
---@field calls { vals: table, refs: table, n: integer }[] the arguments of each call (deep-copied, and as they were)
---@field returnvals table[] the results of each call
---@field by_default luassert.stubAnswer the answer to calls no `on_call_with` matches
---@field on_call_with fun(...: any): luassert.stubAnswer the answer to calls with these arguments (matchers allowed)
local Spy = {}

---@return luassert.spy
function Spy:clear() end

---Puts the wrapped or stubbed function back.
---@return luassert.spy
function Spy:revert() end

---`spy(fn)`, `spy.new(fn)`, `spy.on(t, "name")`.
---@class luassert.spylib
---@overload fun(fn?: function): luassert.spy
spy = {}

---@param fn? function
---@return luassert.spy
function spy.new(fn) end

---Wraps `t[name]` in place.
---@param t table
---@param name string
---@return luassert.spy
function spy.on(t, name) end

---@param value any
---@return boolean
function spy.is_spy(value) end

---`stub(t, "name"[, …])`: replaces `t[name]` with a spy returning the given values.
---@class luassert.stublib
---@overload fun(t?: table, name?: string, ...: any): luassert.spy
stub = {}

---@param t? table
---@param name? string
---@param ... any the values it returns
---@return luassert.spy
function stub.new(t, name, ...) end

---@param value any
---@return boolean
function stub.is_stub(value) end

---`mock(t[, dostub[, fn]])`: every function of `t`, and of the tables in it, made a spy on it
---(with `dostub`, a stub answering `fn`'s values, or nothing).
---@class luassert.mocklib
---@overload fun(t: table, dostub?: boolean, ...: any): table
mock = {}

---@param t table
function mock.clear(t) end

---@param t table
function mock.revert(t) end

---A matcher for `called_with`, `returned_with` and `on_call_with`; callable (`match.is_string()("x")`).
---@class luassert.matcher
---@overload fun(value: any): boolean

---Matchers: `match._` (anything), `match.is_string()`, `match.is_not_nil()`, `match.is_same(v)`,
---`match.matches(pattern)`, `match.is_near(v, tolerance)`, `match.is_ref(v)`, `match.all_of(m…)`,
---`match.any_of(m…)`, `match.none_of(m…)`, `match.is_matcher(v)`, and those `assert:register` adds.
---@class luassert.matchlib
---@field _ luassert.matcher anything
---@field [string] fun(...: any): luassert.matcher
match = {}
