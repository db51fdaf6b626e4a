import Foundation
import HFRMedia
import Testing

@testable import HFRPipeline

/// The queue between stage threads and the lock it is built on (`Locked`'s waits), with real
/// threads: order, back-pressure, dropping, end of stream both ways.
@Suite struct BoundedQueueTests {
    @Test func elementsComeOutInOrderThroughAFullQueueUnderBackPressure() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let producer = StageThread(name: "producer") {
            for i in 0..<1000 { #expect(queue.push(i) == .pushed) }
            queue.finish()
        }
        var received: [Int] = []
        while let i = queue.pop() {
            received.append(i)
            #expect(queue.depth <= 3)
        }
        producer.join()
        #expect(received == Array(0..<1000))
    }

    @Test func aFullQueueDropsWithTheDropPolicyAndKeepsTheOldest() {
        let queue = BoundedQueue<Int>(capacity: 2)
        #expect(queue.push(1, policy: .dropIfFull) == .pushed)
        #expect(queue.push(2, policy: .dropIfFull) == .pushed)
        #expect(queue.push(3, policy: .dropIfFull) == .dropped)
        #expect(queue.tryPop() == 1)
        #expect(queue.push(4, policy: .dropIfFull) == .pushed)
        #expect([queue.tryPop(), queue.tryPop(), queue.tryPop()] == [2, 4, nil])
    }

    @Test func cancellingWakesABlockedProducerAndEmptiesTheQueue() {
        let queue = BoundedQueue<Int>(capacity: 1)
        #expect(queue.push(1) == .pushed)
        let blocked = StageThread(name: "blocked") { queue.push(2) }
        queue.cancel()
        #expect(blocked.join() == .cancelled)
        #expect(queue.pop() == nil)
        #expect(queue.push(3) == .cancelled)
        #expect(queue.depth == 0)
    }

    @Test func theEndComesOnceEveryProducerFinishedAndAllIsDrained() {
        let queue = BoundedQueue<Int>(capacity: 4, producers: 3)
        let producers = (0..<3).map { p in
            StageThread(name: "producer \(p)") {
                for i in 0..<100 { _ = queue.push(p * 1000 + i) }
                queue.finish()
            }
        }
        var received: [Int] = []
        while let i = queue.pop() { received.append(i) }
        for p in producers { p.join() }
        #expect(received.count == 300)
        // Each producer's elements keep their order.
        for p in 0..<3 { #expect(received.filter { $0 / 1000 == p } == (0..<100).map { p * 1000 + $0 }) }
    }

    /// `--buffer ram`: elements are counted by the bytes they hold, not their number; a full budget
    /// drops (or blocks), taking an element frees its bytes, and the fullest point is kept.
    @Test func aByteBudgetHoldsWhatFitsAndCountsItsPeak() {
        let queue = BoundedQueue<Int>(byteBudget: 100) { $0 }
        #expect(queue.push(60, policy: .dropIfFull) == .pushed)
        #expect(queue.push(30, policy: .dropIfFull) == .pushed)
        #expect(queue.push(20, policy: .dropIfFull) == .dropped)
        #expect(queue.push(10, policy: .dropIfFull) == .pushed)
        #expect(queue.heldBytes == 100 && queue.depth == 3)
        #expect(queue.tryPop() == 60)
        #expect(queue.heldBytes == 40)
        #expect(queue.push(50, policy: .dropIfFull) == .pushed)
        #expect(queue.peak == (count: 3, bytes: 100))
        #expect([queue.tryPop(), queue.tryPop(), queue.tryPop(), queue.tryPop()] == [30, 10, 50, nil])
        #expect(queue.heldBytes == 0)
        // An element larger than the whole budget passes alone: a blocked producer is never stuck.
        #expect(queue.push(150, policy: .dropIfFull) == .pushed)
        #expect(queue.push(1, policy: .dropIfFull) == .dropped)
        #expect(queue.peak == (count: 3, bytes: 150))
    }

    /// A byte-bounded queue has no count limit: its ring grows past its first 64 slots, in order,
    /// and blocks a producer only for bytes.
    @Test func aByteBudgetGrowsItsRingAndBlocksOnlyForBytes() {
        let queue = BoundedQueue<Int>(byteBudget: 1000) { _ in 1 }
        for i in 0..<1000 { #expect(queue.push(i, policy: .dropIfFull) == .pushed) }
        #expect(queue.push(1000, policy: .dropIfFull) == .dropped)
        #expect(queue.depth == 1000 && queue.peak.bytes == 1000)
        let blocked = StageThread(name: "blocked") { queue.push(1000) }
        var received: [Int] = []
        while received.count < 1001, let i = queue.pop() { received.append(i) }
        #expect(blocked.join() == .pushed)
        #expect(received == Array(0...1000))
    }

    @Test func aTimedWaitGivesUpAtItsTimeoutAndSeesTheValueAsItIs() {
        let locked = Locked(0)
        let started = ProcessInfo.processInfo.systemUptime
        let seen = locked.withLock(when: { $0 > 0 }, timeout: 0.05) { $0 }
        #expect(seen == 0)
        #expect(ProcessInfo.processInfo.systemUptime - started >= 0.05)
        let setter = StageThread(name: "setter") { locked.withLock { $0 = 7 } }
        #expect(locked.withLock(when: { $0 > 0 }) { $0 } == 7)
        setter.join()
    }

    @Test func tryLockingABusyValueReturnsAtOnce() {
        let locked = Locked(1)
        let inner = locked.withLock { _ in
            StageThread(name: "try") { locked.withLockIfAvailable { $0 } }.join()
        }
        #expect(inner == nil)
        #expect(locked.withLockIfAvailable { $0 } == 1)
    }
}
