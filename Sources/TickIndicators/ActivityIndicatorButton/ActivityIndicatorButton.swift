/// A round button whose ring shows nothing, a spinner or a percentage — as a
/// headless model on a scheduler's virtual time.
///
/// The model never draws and never reads a wall clock: every change is stamped
/// with `scheduler.now`, and ``appearance(at:)`` computes what the button looks
/// like at any instant from its state, its style and the time elapsed since
/// each animation began. Pass a `TestScheduler` to step through animations
/// frame by frame; render with ``ActivityIndicatorButtonSVG``.
///
/// ## Colours
/// A colour set on the ``activityState`` wins; otherwise ``tintColor``,
/// ``normalTrackColor`` (light grey) and ``normalForegroundColor`` (white) apply.
///
/// | style   | background fill | image tint | shadow | progress ring | track       |
/// |---------|-----------------|------------|--------|---------------|-------------|
/// | solid   | tint            | foreground | yes    | tint          | track colour |
/// | outline | clear           | tint       | no     | tint          | track colour |
///
/// When ``isEnabled`` is false, tint and foreground are desaturated (see ``ButtonColor/disabled``).
/// The track is visible unless an outline button is spinning; the progress ring
/// is visible unless the progress bar is `.inactive`.
///
/// ## Animations (all exact `Duration`s from the instant of the change)
/// - Track opacity fades over 0.2 s (ease-out) when its visibility changes.
/// - A percentage's stroke end moves over 0.2 s (ease-out) from the value shown
///   at the instant of the change (0 when the previous style was not a percentage).
/// - Spinning runs the 1.7 s stroke cycle and a 3.0 s rotation from the instant
///   spinning began (see ``ActivityIndicatorButtonAppearance/strokeStart``).
/// - Solid buttons grow a new tint from the centre over 0.2 s (ease-out).
/// - A new image is revealed by a circular mask growing over 0.2 s (ease-out).
/// - ``touchDown()``/``touchUp(inside:)`` start a 0.5 s ripple and scale to 0.98 and back.
///
/// Each animation's time rule: at its start instant it shows its start value, at
/// exactly start + duration its final value (ripples and the tint growth are gone
/// from that instant on).
///
/// ## Decisions (differences from the original are marked)
/// - Interruption: an animation is replaced only when its *target* changes, and a
///   replacement starts from the value presented at that instant (Core Animation's
///   presentation-layer behaviour) and runs the full duration. (Original: restarted
///   from the previous *model* value, so an interrupted fade or percentage jumped.)
/// - The spinner keeps its phase across state changes that stay spinning (e.g. a
///   tint change). (Original: every state change restarted the cycle.)
/// - `animated: false` snaps everything, the tint growth included. (Original: the
///   growth ran even when not animated — though it was usually hidden because the
///   fill was updated at once underneath it.) A running growth interrupted by a new
///   tint is finished instantly and the newest tint grows over it.
/// - The progress ring's visibility snaps (as in the original, whose fade condition
///   compared a value with itself and never animated).
/// - Style, normal colours and `isEnabled` changes are not animated; they cut a tint
///   growth short and snap the track opacity (original: the track waited for the
///   next state change).
/// - A disabled button ignores touches; touch-up outside scales back without a
///   ripple. (Original: only touch-up-inside scaled back.)
///
/// ## Threads
/// The model is thread-safe (a lock guards its state; it calls no user code).
/// Sampling an instant earlier than the most recent change returns the
/// appearance at that change: the model keeps no history.
public final class ActivityIndicatorButton: @unchecked Sendable {
    /// The scheduler whose `now` stamps every change.
    public let scheduler: any Scheduler
    private let lock = Lock()
    private var model: ButtonModel

    /// A button in `state` (inactive by default), solid style, on `scheduler`'s clock.
    /// The initial state is shown at once (no animation).
    public init(scheduler: any Scheduler, state: ActivityIndicatorButtonState = ActivityIndicatorButtonState()) {
        self.scheduler = scheduler
        let now = scheduler.now
        var model = ButtonModel(now: now)
        model.transition(to: state, animated: false, at: now)
        self.model = model
    }

    private func read<R>(_ body: (ButtonModel) -> R) -> R { lock.withLock { body(model) } }

    private func change<R>(_ body: (inout ButtonModel, SchedulerInstant) -> R) -> R {
        let now = scheduler.now
        return lock.withLock { body(&model, now) }
    }

    /// Sets a property that changes without animation: the appearance snaps.
    private func setWithoutAnimation<Value>(_ property: WritableKeyPath<ButtonModel, Value>, _ value: Value) {
        change {
            $0[keyPath: property] = value
            $0.snapAppearance(at: $1)
        }
    }

    // MARK: State

    /// The current state. Setting it transitions with animation (as
    /// `transition(to: newValue, animated: true)`).
    public var activityState: ActivityIndicatorButtonState {
        get { read { $0.state } }
        set { transition(to: newValue, animated: true) }
    }

    /// Moves to `state` at `scheduler.now`, animating the differences when `animated`.
    public func transition(to state: ActivityIndicatorButtonState, animated: Bool = true) {
        change { $0.transition(to: state, animated: animated, at: $1) }
    }

    /// The current state's image; setting it transitions (animated) to the state with the new image.
    public var image: ButtonImage? {
        get { activityState.image }
        set { update(animated: true) { $0.image = newValue } }
    }

    /// Changes the current state in place and transitions to the result.
    ///
    /// `body` runs without the button's lock held, on a copy of the current state;
    /// if another thread changed the state meanwhile, `body` runs again on the new
    /// state (so keep it free of side effects). No update is lost.
    public func update(animated: Bool = true, _ body: (inout ActivityIndicatorButtonState) -> Void) {
        while true {
            let snapshot = read { $0.state }
            var next = snapshot
            body(&next)
            let applied = change { model, now -> Bool in
                guard model.state == snapshot else { return false }
                model.transition(to: next, animated: animated, at: now)
                return true
            }
            if applied { return }
        }
    }

    // MARK: Style and colours

    /// The background style (default `.solid`). Changing it is not animated.
    public var style: ActivityIndicatorButtonStyle {
        get { read { $0.style } }
        set { setWithoutAnimation(\.style, newValue) }
    }

    /// The normal tint (default ``ButtonColor/systemBlue``), used when the state sets none.
    public var tintColor: ButtonColor {
        get { read { $0.tintColor } }
        set { setWithoutAnimation(\.tintColor, newValue) }
    }

    /// The normal track colour (default ``ButtonColor/lightGray``).
    public var normalTrackColor: ButtonColor {
        get { read { $0.normalTrackColor } }
        set { setWithoutAnimation(\.normalTrackColor, newValue) }
    }

    /// The normal foreground (solid image tint) colour (default white).
    public var normalForegroundColor: ButtonColor {
        get { read { $0.normalForegroundColor } }
        set { setWithoutAnimation(\.normalForegroundColor, newValue) }
    }

    /// The ripple colour (default 50 % grey at alpha 0.5).
    public var hitAnimationColor: ButtonColor {
        get { read { $0.hitAnimationColor } }
        set { setWithoutAnimation(\.hitAnimationColor, newValue) }
    }

    /// The drop shadow colour of solid buttons (default black).
    public var shadowColor: ButtonColor {
        get { read { $0.shadowColor } }
        set { setWithoutAnimation(\.shadowColor, newValue) }
    }

    /// Whether the button is enabled (default true). A disabled button shows
    /// desaturated tint and foreground colours and ignores touches.
    public var isEnabled: Bool {
        get { read { $0.isEnabled } }
        set { setWithoutAnimation(\.isEnabled, newValue) }
    }

    /// The tint the current state resolves to (state override, else ``tintColor``; desaturated when disabled).
    public var tintColorForCurrentActivityState: ButtonColor { read { $0.resolvedTint(for: $0.state) } }
    /// The track colour the current state resolves to.
    public var trackColorForCurrentActivityState: ButtonColor { read { $0.resolvedTrack(for: $0.state) } }
    /// The foreground colour the current state resolves to (desaturated when disabled).
    public var foregroundColorForCurrentActivityState: ButtonColor { read { $0.resolvedForeground(for: $0.state) } }

    // MARK: Size

    /// An explicit size; `nil` (the default) uses ``intrinsicContentSize``.
    public var frameSize: ButtonSize? {
        get { read { $0.frameSize } }
        set { change { $0.frameSize = newValue; $0.lastChange = $1 } }
    }

    /// 35 × 35 without an image; with one, per axis `max(image extent, 35) + 2 × (5 + 1.5 + 3 + 1)`
    /// (image padding, track, progress ring and outer padding).
    public var intrinsicContentSize: ButtonSize { read { $0.intrinsicContentSize } }

    /// The size the button is drawn at: ``frameSize`` or, when nil, ``intrinsicContentSize``.
    public var size: ButtonSize { read { $0.size } }

    // MARK: Touch

    /// A finger went down: a ripple starts and the button scales towards 0.98 (0.5 s, ease-out).
    /// Ignored while disabled.
    public func touchDown() {
        change { $0.touchDown(at: $1) }
    }

    /// The finger lifted: the button scales back to 1 (0.5 s, ease-out from the presented
    /// scale); inside the button a new ripple also starts. Ignored while disabled.
    public func touchUp(inside: Bool = true) {
        change { $0.touchUp(inside: inside, at: $1) }
    }

    // MARK: Appearance

    /// What the button looks like at `instant` (clamped to no earlier than the last change).
    public func appearance(at instant: SchedulerInstant) -> ActivityIndicatorButtonAppearance {
        read { $0.appearance(at: instant) }
    }

    /// What the button looks like at `scheduler.now`.
    public var appearance: ActivityIndicatorButtonAppearance {
        appearance(at: scheduler.now)
    }

    // MARK: Saved states (storage; API in ActivityIndicatorButton+SavedStates.swift)

    func withSavedStates<R>(_ body: (inout [String: ActivityIndicatorButtonState]) -> R) -> R {
        lock.withLock { body(&model.savedStates) }
    }
}
