"""Paired timing: one launch of each of two kernels in turn, each after an L2
flush and timed by its own CUDA events, so that both see the same clocks and
power state. The card drifts by several percent over a run (METHOD.md); the
median of the per-pair ratios separates a kernel's speed from that drift,
which moves do_bench medians taken seconds apart by as much as the gaps being
measured. Timing the reference against itself the same way gives the
pairing's own noise floor.

A launch's host work (argument packing, a descriptor's encoding) must not be
timed: each timed launch follows a spin on the GPU (torch.cuda._sleep) longer
than the host work that launch was seen to take, so that the kernel is
queued before the GPU reaches the start event.
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

PAIRS = 200
FLUSH_BYTES = 256 * 1024 * 1024  # more than the H100's and H200's L2 (50 and 60 MB)


# The spin before a timed launch: this many times the host work seen for it,
# and at least MIN_SPIN_S.
SPIN_FACTOR = 2.0
MIN_SPIN_S = 20e-6


class PairedTimer:
    """Times launches after an L2 flush, by CUDA events around each."""

    def __init__(self, torch: Any, clock: Callable[[], float] = time.perf_counter) -> None:
        self.torch = torch
        self.clock = clock  # the host's, in seconds
        self.flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
        # cudaDeviceProp.clockRate (kHz), the highest clock: at a lower one a
        # spin of that many cycles lasts longer, which is safe. Where torch
        # does not report it, 2 GHz, above Hopper's 1.98.
        properties = torch.cuda.get_device_properties(torch.cuda.current_device())
        self.cycles_per_s = (getattr(properties, "clock_rate", 0) or 2_000_000) * 1000

    def host_seconds(self, run: Callable[[], Any]) -> float:
        """The host's time to issue one launch of `run` (the GPU's is not waited for)."""
        self.torch.cuda.synchronize()
        start = self.clock()
        run()
        seconds = self.clock() - start
        self.torch.cuda.synchronize()
        return seconds

    def _timed(self, run: Callable[[], Any], spin_s: float) -> tuple[Any, Any]:
        self.flush.zero_()
        cuda = self.torch.cuda
        cuda._sleep(int(spin_s * self.cycles_per_s))
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        return start, end

    def ratio(self, reference: Callable[[], Any], other: Callable[[], Any],
              pairs: int = PAIRS) -> float:
        """The median over `pairs` of other's time / reference's time, who goes
        first alternating so that neither always follows the flush."""
        host = max(self.host_seconds(run) for run in (reference, other, reference, other))
        spin_s = max(MIN_SPIN_S, SPIN_FACTOR * host)
        ratios = []
        for p in range(pairs):
            first_is_reference = p % 2 == 1
            order = [reference, other] if first_is_reference else [other, reference]
            events = [self._timed(run, spin_s) for run in order]
            self.torch.cuda.synchronize()
            ms = [start.elapsed_time(end) for start, end in events]
            reference_ms, other_ms = (ms[0], ms[1]) if first_is_reference else (ms[1], ms[0])
            ratios.append(other_ms / reference_ms)
        return statistics.median(ratios)
