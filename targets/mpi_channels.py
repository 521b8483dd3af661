"""`stablehlo.send` and `recv` across processes on MPI: a queue per channel.

A send names a channel, not a rank, and any process may receive what it
sent (in the order sent): the channel is a queue the grid shares. So each
channel has a home rank (`channel % size`), where a service thread keeps
its queue: a sender hands its values to the channel's home; a receiver asks
the home for the channel's next values and waits for the reply. The home
answers requests in the order they arrive, each with the oldest values
waiting, so every value is received once, in the order the home got them.

Every rank of a program that sends or receives starts its service
(`open`) before it runs, so a channel's home serves whether or not it takes
part; messages that arrive earlier wait in MPI's queues. The service polls
(with short sleeps, not MPI's busy wait, so that it takes no core from the
rank's own work) and stops at exit, before MPI finalizes. A receive that
gets nothing within the grid's wait limit is a `CollectiveError`, not a hang.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
from xlir.evaluator.hlo.process_grid import WAIT_LIMIT_S

from xlir.communicator import CollectiveError

_TO_HOME, _REQUEST, _REPLY = 8, 9, 10
"""MPI tags: values for a channel's home, a receiver's request, the home's
reply (collective_permute uses 7)."""
_POLL_S = 0.0002


class MpiChannels:
    """This rank's end of the grid's channels, on `world` (an
    MPI.COMM_WORLD with MPI_THREAD_MULTIPLE)."""

    def __init__(self, mpi: Any, world: Any):
        if mpi.Query_thread() != mpi.THREAD_MULTIPLE:
            raise CollectiveError(
                "error: stablehlo.send/recv across processes need MPI initialised "
                "with MPI_THREAD_MULTIPLE (mpi4py's default)"
            )
        self.mpi = mpi
        self.world = world
        self.rank = world.Get_rank()
        self.size = world.Get_size()
        self._stop = threading.Event()
        self._service = threading.Thread(
            target=self._serve, name="xlir-mpi-channels", daemon=True
        )
        self._service.start()
        atexit.register(self.close)

    def close(self) -> None:
        """Stop the service (before MPI finalizes)."""
        self._stop.set()
        self._service.join()

    def send(self, values: Sequence[np.ndarray], channel: int) -> None:
        kept = [np.array(v, copy=True) for v in values]
        self.world.send((channel, kept), dest=channel % self.size, tag=_TO_HOME)

    def recv(self, channel: int) -> list[np.ndarray]:
        home = channel % self.size
        self.world.send(channel, dest=home, tag=_REQUEST)
        started = time.monotonic()
        while not self.world.Iprobe(source=home, tag=_REPLY):
            if time.monotonic() - started > WAIT_LIMIT_S:
                raise CollectiveError(
                    f"error: rank {self.rank} waited {WAIT_LIMIT_S:.0f} s at a "
                    f"receive on channel {channel}: no rank sent on it"
                )
            time.sleep(_POLL_S)
        return self.world.recv(source=home, tag=_REPLY)

    def _serve(self) -> None:
        """The home's loop: queue what arrives, answer waiting receivers."""
        queued: dict[int, deque[list[np.ndarray]]] = {}
        waiting: dict[int, deque[int]] = {}
        status = self.mpi.Status()
        while not self._stop.is_set():
            if self.world.Iprobe(tag=_TO_HOME, status=status):
                channel, values = self.world.recv(
                    source=status.Get_source(), tag=_TO_HOME
                )
                queued.setdefault(channel, deque()).append(values)
            elif self.world.Iprobe(tag=_REQUEST, status=status):
                source = status.Get_source()
                channel = self.world.recv(source=source, tag=_REQUEST)
                waiting.setdefault(channel, deque()).append(source)
            else:
                time.sleep(_POLL_S)
                continue
            for channel, receivers in waiting.items():
                values = queued.get(channel)
                while receivers and values:
                    self.world.send(
                        values.popleft(), dest=receivers.popleft(), tag=_REPLY
                    )
