/// The button's whole state, as a value: what it should show (state, style,
/// colours) and what is being animated (with exact start instants).
/// ``ActivityIndicatorButton`` wraps one of these in a lock and feeds it the
/// scheduler's `now`; all the rules live here as pure functions of time.
struct ButtonModel: Sendable {
    var state = ActivityIndicatorButtonState()
    var style: ActivityIndicatorButtonStyle = .solid
    var tintColor: ButtonColor = .systemBlue
    var normalTrackColor: ButtonColor = .lightGray
    var normalForegroundColor: ButtonColor = .white
    var hitAnimationColor: ButtonColor = ButtonColor.gray.withAlpha(0.5)
    var shadowColor: ButtonColor = .black
    var isEnabled = true
    var frameSize: ButtonSize?
    var savedStates: [String: ActivityIndicatorButtonState] = [:]

    /// The instant of the most recent change; sampling earlier instants is clamped to it.
    var lastChange: SchedulerInstant
    var trackOpacity: ValueAnimation
    var strokeEnd = ValueAnimation.fixed(0)
    var spinStart: SchedulerInstant?
    var tintGrowth: TintGrowth?
    var imageReveal = ValueAnimation.fixed(1)
    var ripples: [RippleAnimation] = []
    var scale = ValueAnimation.fixed(1)

    init(now: SchedulerInstant) {
        lastChange = now
        trackOpacity = .fixed(1)  // solid + inactive: track visible
    }

    // MARK: Colour resolution

    func resolvedTint(for state: ActivityIndicatorButtonState) -> ButtonColor {
        let color = state.tintColor ?? tintColor
        return isEnabled ? color : color.disabled
    }

    func resolvedForeground(for state: ActivityIndicatorButtonState) -> ButtonColor {
        let color = state.foregroundColor ?? normalForegroundColor
        return isEnabled ? color : color.disabled
    }

    func resolvedTrack(for state: ActivityIndicatorButtonState) -> ButtonColor {
        state.trackColor ?? normalTrackColor
    }

    func trackVisible(for state: ActivityIndicatorButtonState) -> Bool {
        style == .solid || !state.progressBarStyle.isSpinning
    }

    var intrinsicContentSize: ButtonSize {
        let base = ButtonMetrics.defaultContentExtent
        guard let image = state.image else { return ButtonSize(width: base, height: base) }
        let padding = 2 * (ButtonMetrics.minimumImagePadding + ButtonMetrics.trackWidth
            + ButtonMetrics.progressBarWidth + ButtonMetrics.outerPadding)
        return ButtonSize(width: max(image.size.width, base) + padding, height: max(image.size.height, base) + padding)
    }

    var size: ButtonSize { frameSize ?? intrinsicContentSize }

    // MARK: Changes

    private func animation(from: Double, to: Double, at now: SchedulerInstant, duration: Duration) -> ValueAnimation {
        ValueAnimation(from: from, to: to, start: now, duration: duration, curve: .easeOut)
    }

    /// Drops finished ripples and animations, so the model does not grow.
    mutating func prune(at now: SchedulerInstant) {
        ripples.removeAll { !$0.progress.isRunning(at: now) }
        if let growth = tintGrowth, !growth.progress.isRunning(at: now) { tintGrowth = nil }
    }

    /// Moves to `next`; see ``ActivityIndicatorButton/transition(to:animated:)`` for the rules.
    mutating func transition(to next: ActivityIndicatorButtonState, animated: Bool, at now: SchedulerInstant) {
        let previous = state
        prune(at: now)

        // Track opacity: replaced only when its target changes; from the presented value.
        let trackTarget = trackVisible(for: next) ? 1.0 : 0.0
        if !animated {
            trackOpacity = .fixed(trackTarget)
        } else if trackOpacity.to != trackTarget {
            trackOpacity = animation(
                from: trackOpacity.value(at: now), to: trackTarget, at: now, duration: ButtonMetrics.animationDuration)
        }

        // Progress bar.
        switch next.progressBarStyle {
        case .percentage:
            let target = Double(next.progressBarStyle.clampedFraction ?? 0)
            if !animated {
                strokeEnd = .fixed(target)
            } else if previous.progressBarStyle.clampedFraction == nil {
                strokeEnd = animation(from: 0, to: target, at: now, duration: ButtonMetrics.animationDuration)
            } else if strokeEnd.to != target {
                strokeEnd = animation(
                    from: strokeEnd.value(at: now), to: target, at: now, duration: ButtonMetrics.animationDuration)
            }
            spinStart = nil
        case .spinning:
            if spinStart == nil || !previous.progressBarStyle.isSpinning { spinStart = now }
            strokeEnd = .fixed(0)
        case .inactive:
            spinStart = nil
            strokeEnd = .fixed(0)
        }

        // Solid tint growth: replaced only when the target tint changes.
        let nextTint = resolvedTint(for: next)
        if style == .solid && animated {
            let presentedTarget = tintGrowth?.to ?? resolvedTint(for: previous)
            if presentedTarget != nextTint {
                tintGrowth = TintGrowth(
                    from: presentedTarget, to: nextTint,
                    progress: animation(from: 0, to: 1, at: now, duration: ButtonMetrics.animationDuration))
            }
        } else {
            tintGrowth = nil
        }

        // Image reveal: a different image always restarts from nothing.
        if previous.image != next.image {
            imageReveal = animated
                ? animation(from: 0, to: 1, at: now, duration: ButtonMetrics.animationDuration) : .fixed(1)
        }

        state = next
        lastChange = now
    }

    /// A change to style, normal colours or `isEnabled`: nothing animates; a tint
    /// growth in progress is cut short and the track opacity snaps to its target.
    mutating func snapAppearance(at now: SchedulerInstant) {
        prune(at: now)
        tintGrowth = nil
        trackOpacity = .fixed(trackVisible(for: state) ? 1 : 0)
        lastChange = now
    }

    mutating func touchDown(at now: SchedulerInstant) {
        guard isEnabled else { return }
        prune(at: now)
        startRipple(at: now)
        scale = animation(
            from: scale.value(at: now), to: ButtonMetrics.pressedScale, at: now, duration: ButtonMetrics.hitAnimationDuration)
        lastChange = now
    }

    mutating func touchUp(inside: Bool, at now: SchedulerInstant) {
        guard isEnabled else { return }
        prune(at: now)
        if inside { startRipple(at: now) }
        scale = animation(from: scale.value(at: now), to: 1, at: now, duration: ButtonMetrics.hitAnimationDuration)
        lastChange = now
    }

    private mutating func startRipple(at now: SchedulerInstant) {
        let size = self.size
        ripples.append(RippleAnimation(
            maxRadius: max(size.width, size.height) / 2 + ButtonMetrics.hitAnimationDistance,
            progress: animation(from: 0, to: 1, at: now, duration: ButtonMetrics.hitAnimationDuration)))
    }

    // MARK: Sampling

    func appearance(at requested: SchedulerInstant) -> ActivityIndicatorButtonAppearance {
        let time = max(requested, lastChange)
        let tint = resolvedTint(for: state)
        let solid = style == .solid
        let growth = tintGrowth.flatMap { growth in
            growth.progress.isRunning(at: time)
                ? (growth, TintGrowthAppearance(color: growth.to, fraction: growth.progress.value(at: time))) : nil
        }

        var strokeStart = 0.0
        var strokeEndValue = 0.0
        var rotation = 0.0
        var progressOpacity = 0.0
        switch state.progressBarStyle {
        case .inactive:
            break
        case .spinning:
            let elapsed = time - (spinStart ?? lastChange)
            (strokeStart, strokeEndValue) = SpinnerCycle.stroke(elapsed: elapsed)
            rotation = SpinnerCycle.rotation(elapsed: elapsed)
            progressOpacity = 1
        case .percentage:
            strokeEndValue = strokeEnd.value(at: time)
            progressOpacity = 1
        }

        let ripplesNow = ripples.compactMap { ripple -> RippleAppearance? in
            guard ripple.progress.isRunning(at: time) else { return nil }
            let p = ripple.progress.value(at: time)
            return RippleAppearance(radius: ripple.maxRadius * p, opacity: 1 - p, color: hitAnimationColor)
        }

        return ActivityIndicatorButtonAppearance(
            size: size,
            style: style,
            fillColor: solid ? (growth?.0.from ?? tint) : .clear,
            tintGrowth: growth?.1,
            shadowColor: solid ? shadowColor : .clear,
            trackColor: resolvedTrack(for: state),
            trackWidth: ButtonMetrics.trackWidth,
            trackOpacity: trackOpacity.value(at: time),
            progressColor: tint,
            progressWidth: ButtonMetrics.progressBarWidth,
            progressOpacity: progressOpacity,
            strokeStart: strokeStart,
            strokeEnd: strokeEndValue,
            rotation: rotation,
            image: state.image,
            imageTint: solid ? resolvedForeground(for: state) : tint,
            imageReveal: imageReveal.value(at: time),
            ripples: ripplesNow,
            scale: scale.value(at: time))
    }
}
