"""Paired timing: one launch of each of two kernels in turn, each after an L2
flush and timed by its own CUDA events, so that both see the same clocks and
power state. The card drifts by several percent over a run (METHOD.md); the
median of the per-pair ratios separates a kernel's speed from that drift,
which moves do_bench medians taken seconds apart by as much as the gaps being
measured. Timing the reference against itself the same way gives the
pairing's own noise floor.
"""
from __future__ import annotations

import statistics
from typing import Any, Callable

PAIRS = 200
FLUSH_BYTES = 256 * 1024 * 1024  # more than the H100's and H200's L2 (50 and 60 MB)


class PairedTimer:
    """Times launches after an L2 flush, by CUDA events around each."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")

    def _timed(self, run: Callable[[], Any]) -> tuple[Any, Any]:
        self.flush.zero_()
        cuda = self.torch.cuda
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        return start, end

    def ratio(self, reference: Callable[[], Any], other: Callable[[], Any],
              pairs: int = PAIRS) -> float:
        """The median over `pairs` of other's time / reference's time, who goes
        first alternating so that neither always follows the flush."""
        ratios = []
        for p in range(pairs):
            first_is_reference = p % 2 == 1
            order = [reference, other] if first_is_reference else [other, reference]
            events = [self._timed(run) for run in order]
            self.torch.cuda.synchronize()
            ms = [start.elapsed_time(end) for start, end in events]
            reference_ms, other_ms = (ms[0], ms[1]) if first_is_reference else (ms[1], ms[0])
            ratios.append(other_ms / reference_ms)
        return statistics.median(ratios)
