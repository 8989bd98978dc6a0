import Lamina

/// A `width`×8 root, black, with a red block 2 points wide whose centre moves from x = 1 to
/// x = 1 + `frames` in `frames` frames at 30 fps (linear, held before and after): in frame n its
/// left edge is at x = n.
func movingBlock(width: CGFloat, frames: Int) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: 8)
    root.position = CGPoint(x: width / 2, y: 4)
    root.backgroundColor = CGColor(gray: 0, alpha: 1)
    let block = CALayer()
    block.frame = CGRect(x: 0, y: 0, width: 2, height: 8)
    block.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let move = CABasicAnimation(keyPath: "position.x")
    move.fromValue = 1
    move.toValue = 1 + Double(frames)
    move.duration = Double(frames) / 30
    move.timingFunction = CAMediaTimingFunction(name: .linear)
    move.fillMode = .both
    move.isRemovedOnCompletion = false
    block.add(move, forKey: "move", atMediaTime: 0)
    root.addSublayer(block)
    return root
}
