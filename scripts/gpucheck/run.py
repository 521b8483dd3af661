"""`gpu_check.py run`, on the GPU machine: every prepared program loaded
from its PTX (JIT-compiled by the driver) and from its cubin for the GPU's
architecture (where prepared), run from its manifest, compared with the
expected outputs, timed with CUDA events
(median of `repeats` after `warmup`: around one run as issued from here,
and the device's own time, `device_time`); XLA's time on the same StableHLO text
where JAX runs (a subprocess: `gpu_check.py xla`); the device-to-device
copy bandwidth as the roofline of the elementwise programs. A JSON report,
a table, and a non-zero exit on any failure of xlir's programs (a JIT or
launch error is recorded, and the run goes on with the next program).

`fake=True` rehearses it all without a GPU: the fake driver of
`fake_cuda`, with each program's kernels compiled by xlir's nvptx-emu
target from its StableHLO text (this needs xlir).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from gpucheck.compare import compare_outputs
from gpucheck.cuda import CudaError, Driver, NoDriver, load_library
from gpucheck.cuda import timed as cuda_timed
from gpucheck.data import DataError, expected_outputs, program_inputs, read_index
from gpucheck.device_time import HOST_VERSIONS, DeviceClock
from gpucheck.schedule import LoadedProgram, ManifestError, read_manifest

XLA_SECONDS = 180.0
"""The XLA subprocess's time limit (compiles included); what it did by then
is kept."""


TIME_BUDGET_MS = 3000.0
"""Timing one program takes about this long at most: a program whose
first run is slow (a kernel left on one thread) is timed fewer times."""


def repeats_for(first_ms: float, repeats: int, warmup: int) -> tuple[int, int]:
    """(repeats, warmup) for a program whose first run took `first_ms`
    (`TIME_BUDGET_MS`; at least 3 repeats, and the first run as the warm-up
    of a slow one)."""
    if first_ms * (repeats + warmup) <= TIME_BUDGET_MS:
        return repeats, warmup
    return max(3, min(repeats, int(TIME_BUDGET_MS / max(first_ms, 1e-3)))), 0


def timed(
    driver: Driver, program: LoadedProgram, repeats: int, warmup: int
) -> dict[str, float]:
    """Median milliseconds of a run: by CUDA events, by the host's clock
    to the end of the device's work (as XLA's time is taken), and the
    device's own time with the L2 cache evicted before each run and not."""
    for _ in range(warmup):
        program.run()
    driver.synchronize()
    start, end = driver.event(), driver.event()
    events, walls = [], []
    try:
        for _ in range(repeats):
            began = time.perf_counter()
            driver.record(start)
            program.run()
            driver.record(end)
            events.append(driver.elapsed_ms(start, end))
            driver.synchronize()
            walls.append((time.perf_counter() - began) * 1e3)
    finally:
        driver.destroy(start)
        driver.destroy(end)
    began = time.perf_counter()
    for _ in range(repeats):
        program.run()
    driver.synchronize()
    amortized = (time.perf_counter() - began) * 1e3 / repeats
    clock = DeviceClock(driver)
    try:
        device = clock.median_ms(program.run, repeats, evict=True)
        device_warm = clock.median_ms(program.run, repeats, evict=False)
    finally:
        clock.release()
    return {
        "event_ms": float(np.median(events)),
        "wall_ms": float(np.median(walls)),
        "amortized_ms": amortized,
        "device_ms": device,
        "device_warm_ms": device_warm,
        "repeats": repeats,
        "warmup": warmup,
    }


def run_image(
    driver: Driver,
    folder: Path,
    entry: dict[str, Any],
    image: str,
    repeats: int,
    warmup: int,
) -> tuple[dict[str, Any], list[np.ndarray] | None]:
    """One program from one image: its comparison (and, for the PTX, its
    times and kernels' registers); any failure as a message."""
    result: dict[str, Any] = {"image": image, "ok": False}
    program: LoadedProgram | None = None
    outputs = None
    try:
        manifest = read_manifest(folder / entry["dir"] / "model.manifest.json")
        program = LoadedProgram(
            driver, manifest, (folder / entry["dir"] / image).read_bytes()
        )
        if program.module.log:
            result["jit_log"] = program.module.log[-2000:]
        program.set_inputs(program_inputs(folder, entry))
        began = time.perf_counter()
        program.run()
        outputs = program.outputs()
        first_ms = (time.perf_counter() - began) * 1e3
        result["first_run_ms"] = first_ms
        wants, positions = expected_outputs(folder, entry)
        result["outputs"] = compare_outputs(
            outputs, wants, entry["tolerance"], positions
        )
        result["ok"] = all(o["ok"] for o in result["outputs"])
        result["kernels"] = program.kernel_attributes()
        result["while_iterations"] = program.iterations
        if image.endswith(".ptx") and repeats:
            result.update(
                timed(driver, program, *repeats_for(first_ms, repeats, warmup))
            )
    except CudaError as error:
        result["error"] = f"CudaError: {error}"
        program = None  # its context is reset: nothing of it is left to free
        driver.reset()
        result["context_reset"] = True
    except (ManifestError, DataError, OSError, KeyError, ValueError) as error:
        result["error"] = f"{type(error).__name__}: {error}"
    finally:
        if program is not None:
            try:
                program.release()
            except CudaError as error:
                result.update(ok=False, error=f"release: CudaError: {error}")
                driver.reset()
                result["context_reset"] = True
    return result, outputs


def run_xla(
    script: Path, folder: Path, work: Path, repeats: int, warmup: int, seconds: float
) -> dict[str, Any]:
    """XLA's outputs and times (`gpu_check.py xla` in a subprocess)."""
    command = [
        sys.executable,
        str(script),
        "xla",
        "--dir",
        str(folder),
        "--out",
        str(work),
        "--repeats",
        str(repeats),
        "--warmup",
        str(warmup),
    ]
    environment = {**os.environ, "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
            env=environment,
        )
    except subprocess.TimeoutExpired:
        failure = f"the XLA run took over {seconds:.0f} s; the programs it did are kept"
    else:
        failure = "" if done.returncode == 0 else (done.stderr or done.stdout)[-3000:]
    report = work / "xla.json"
    if not report.exists():
        return {"ok": False, "error": failure or "the XLA run wrote no report"}
    found = json.loads(report.read_text())
    return {"ok": not failure, **({"error": failure} if failure else {}), **found}


def fake_driver() -> tuple[Driver, Any]:
    """A `Driver` over the fake library, and the fake (whose `kernels` is
    set per program)."""
    fake_cuda = importlib.import_module("gpucheck.fake_cuda")

    fake = fake_cuda.FakeCuda(kernels=with_check_kernels(None))
    return Driver(fake.library()), fake


def with_check_kernels(kernels: Any) -> Any:
    """`kernels` (a lookup by name, or None) and the checking kernels of
    `device_time`, for the fake driver."""

    def lookup(name: str) -> Any:
        if name in HOST_VERSIONS:
            return HOST_VERSIONS[name]
        if kernels is None:
            raise KeyError(name)
        return kernels(name)

    return lookup


def emulated_kernels(folder: Path, entry: dict[str, Any]) -> Any:
    """The program's kernels by name, compiled by xlir's nvptx-emu target."""
    xlir = importlib.import_module("xlir")
    path = folder / entry["dir"] / "program.mlir"
    executable = xlir.compile(path.read_text(), target="nvptx-emu", name=str(path))
    return with_check_kernels(executable.image.kernels.__getitem__)


def run(
    folder: Path,
    report_path: Path,
    script: Path,
    repeats: int = 20,
    warmup: int = 3,
    with_xla: bool = True,
    fake: bool = False,
    only: list[str] | None = None,
    deadline_s: float = 420.0,
) -> int:
    """See the module docstring; the exit status. xlir's programs run first
    (the report is written after each, so a run cut short keeps what it
    did); a program not started within `deadline_s` is recorded as not run
    (a failure); XLA gets the time left, at least a minute."""
    started = time.monotonic()
    try:
        index = read_index(folder)
        if fake:
            driver, fake_library = fake_driver()
        else:
            driver, fake_library = Driver(load_library()), None
    except (NoDriver, DataError) as error:
        print(f"gpu_check run: {error}", file=sys.stderr)
        return 2
    entries = [e for e in index["programs"] if not only or e["name"] in only]
    device = driver.describe()
    arch = device["compute_capability"].replace(".", "")
    report: dict[str, Any] = {
        "device": device,
        "fake_driver": fake,
        "index": {k: v for k, v in index.items() if k != "programs"},
        "repeats": repeats,
        "warmup": warmup,
    }
    bandwidth = copy_bandwidth(driver, 16 if fake else 256, 3 if fake else repeats)
    report["copy_bandwidth"] = bandwidth
    report["xla"] = {"ok": False, "error": "not run yet"}
    results: list[dict[str, Any]] = []
    report["programs"] = results
    outputs: dict[str, list[np.ndarray] | None] = {}
    broken = ""
    for entry in entries:
        if time.monotonic() - started > deadline_s:
            result = _header(entry)
            result.update(
                ok=False, error=f"not run: past the deadline ({deadline_s:.0f} s)"
            )
        elif broken:
            result = _header(entry)
            result.update(ok=False, error=f"not run: the device failed ({broken})")
        else:
            try:
                result, outputs[entry["dir"]] = run_program(
                    driver,
                    fake_library,
                    folder,
                    entry,
                    arch,
                    bandwidth,
                    repeats,
                    warmup,
                )
            except CudaError as error:  # a context reset failed
                broken = str(error)
                result = _header(entry)
                result.update(ok=False, error=f"the device failed: {error}")
        results.append(result)
        print(_row(result), file=sys.stderr, flush=True)
        _write(report, report_path)
    if with_xla:
        with tempfile.TemporaryDirectory() as work:
            xla = run_xla(script, folder, Path(work), repeats, warmup, XLA_SECONDS)
            report["xla"] = {k: v for k, v in xla.items() if k != "programs"}
            for entry, result in zip(entries, results, strict=True):
                timing = xla.get("programs", {}).get(entry["dir"])
                if timing is not None:
                    add_xla(
                        result,
                        timing,
                        folder,
                        entry,
                        Path(work),
                        outputs.get(entry["dir"]),
                    )
    else:
        report["xla"] = {"ok": False, "error": "skipped (--no-xla)"}
    _write(report, report_path)
    print(table(report))
    return 0 if report["summary"]["failed"] == 0 else 1


def _write(report: dict[str, Any], path: Path) -> None:
    report["summary"] = summary(report["programs"])
    path.write_text(json.dumps(report, indent=1))


def _header(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": entry["name"],
        "set": entry["set"],
        "elementwise": entry["elementwise"],
        "images": [],
    }


def run_program(
    driver: Driver,
    fake: Any,
    folder: Path,
    entry: dict[str, Any],
    arch: str,
    bandwidth: dict[str, float],
    repeats: int,
    warmup: int,
) -> tuple[dict[str, Any], list[np.ndarray] | None]:
    """Every image of one program (its PTX, and its cubin for `arch`, e.g.
    "90"); the outputs of its PTX."""
    result = _header(entry)
    if "compile_error" in entry:
        result["ok"] = False
        result["error"] = "xlir did not compile it: " + entry["compile_error"][-2000:]
        return result, None
    if fake is not None:
        try:
            fake.kernels = emulated_kernels(folder, entry)
        except Exception as error:
            result.update(ok=False, error=f"nvptx-emu: {type(error).__name__}: {error}")
            return result, None
    cubin = entry.get("cubins", {}).get(arch)
    images = ["model.ptx"] + ([cubin] if cubin else [])
    if not cubin:
        result["cubin_skipped"] = (
            f"no cubin for sm_{arch} (prepared: "
            f"{', '.join(entry.get('cubins', {})) or 'none'}): a cubin runs only on "
            "its architecture"
        )
    outputs = None
    for image in images:
        found, got = run_image(driver, folder, entry, image, repeats, warmup)
        result["images"].append(found)
        outputs = got if image == "model.ptx" else outputs
    result["ok"] = all(i["ok"] for i in result["images"])
    if entry.get("cubin_error"):
        result["cubin_error"] = entry["cubin_error"]
    ptx = result["images"][0]
    sizes = sum(np.prod(i["shape"]) * np.dtype(i["dtype"]).itemsize for i in _io(entry))
    result["bytes"] = int(sizes)
    if "event_ms" in ptx:
        result["xlir_ms"] = ptx["event_ms"]
        result["xlir_wall_ms"] = ptx["wall_ms"]
        result["xlir_amortized_ms"] = ptx["amortized_ms"]
        result["gb_per_s"] = sizes / (ptx["event_ms"] * 1e-3) / 1e9
        result["fraction_of_copy"] = result["gb_per_s"] / bandwidth["gb_per_s"]
        result["device_ms"] = ptx["device_ms"]
        result["device_warm_ms"] = ptx["device_warm_ms"]
        result["gb_per_s_device"] = sizes / (ptx["device_ms"] * 1e-3) / 1e9
        result["fraction_of_copy_device"] = (
            result["gb_per_s_device"] / bandwidth["device_gb_per_s"]
        )
        try:
            copy = copy_ms(driver, int(sizes), repeats)
            result["copy_same_bytes_ms"] = copy["event_ms"]
            result["fraction_of_copy_same_bytes"] = copy["event_ms"] / ptx["event_ms"]
            result["copy_same_bytes_device_ms"] = copy["device_ms"]
            result["fraction_of_copy_same_bytes_device"] = (
                copy["device_ms"] / ptx["device_ms"]
            )
        except CudaError as error:
            result["copy_same_bytes_error"] = str(error)
    return result, outputs


def copy_bandwidth(driver: Driver, megabytes: int, repeats: int) -> dict[str, float]:
    """The roofline of a memory-bound kernel: a `megabytes` MiB
    device-to-device copy's bandwidth (bytes read + written per second), by
    events and by device time (`copy_ms`)."""
    size = megabytes << 20
    times = copy_ms(driver, 2 * size, repeats)
    return {
        "bytes": size,
        "median_ms": times["event_ms"],
        "gb_per_s": 2 * size / times["event_ms"] / 1e6,
        "device_median_ms": times["device_ms"],
        "device_gb_per_s": 2 * size / times["device_ms"] / 1e6,
    }


def copy_ms(driver: Driver, moved: int, repeats: int) -> dict[str, float]:
    """Medians of a device-to-device copy moving `moved` bytes (half read,
    half written): by CUDA events around it as issued from here (launch
    overhead included), and the device's own time with the L2 cache evicted
    before each (`device_time`)."""
    half = max(1, moved // 2)
    source, target = driver.allocate(half), driver.allocate(half)
    clock = DeviceClock(driver)
    try:
        driver.zero(source, half)

        def work() -> None:
            driver.copy(target, source, half)

        events = cuda_timed(driver, work, repeats, 3)
        device = clock.median_ms(work, repeats, evict=True)
    finally:
        clock.release()
        driver.free(source)
        driver.free(target)
    return {"event_ms": float(np.median(events)), "device_ms": device}


def add_xla(
    result: dict[str, Any],
    timing: dict[str, Any],
    folder: Path,
    entry: dict[str, Any],
    work: Path,
    outputs: list[np.ndarray] | None,
) -> None:
    """XLA's time on the program, and its outputs against the expected ones
    and against xlir's (for information: a mismatch of XLA's fails nothing)."""
    result["xla"] = {
        k: v for k, v in timing.items() if k != "trace" or not timing["ok"]
    }
    if not timing["ok"]:
        return
    result["xla_wall_ms"] = timing["wall_ms"]
    if "amortized_ms" in timing:
        result["xla_amortized_ms"] = timing["amortized_ms"]
    if "xlir_amortized_ms" in result and "amortized_ms" in timing:
        result["xlir_over_xla"] = result["xlir_amortized_ms"] / timing["amortized_ms"]
    if "xlir_wall_ms" in result:
        result["xlir_over_xla_wall"] = result["xlir_wall_ms"] / timing["wall_ms"]
    stored = np.load(work / f"{entry['dir'].replace('/', '_')}.npz")
    theirs = [stored[f"arr_{i}"] for i in range(len(stored.files))]
    wants, positions = expected_outputs(folder, entry)
    result["xla_vs_expected"] = compare_outputs(
        theirs, wants, entry["tolerance"], positions
    )
    if outputs is not None:
        result["xlir_vs_xla"] = compare_outputs(outputs, theirs, entry["tolerance"])


def _io(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """Shapes and dtypes of the program's inputs and outputs (the bytes a
    memory-bound program must move at least)."""
    return [*entry["inputs"], *entry["outputs"]]


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, the geometric mean of xlir's amortized time over XLA's (bench
    programs with both), and the elementwise bench programs' share of the
    copy bandwidth (of a 256 MiB copy, and of a copy of their own bytes;
    by events around a run, and by the device's own time)."""
    ratios = [
        r["xlir_over_xla"]
        for r in results
        if r["set"] == "bench" and "xlir_over_xla" in r
    ]
    return {
        "programs": len(results),
        "failed": sum(not r["ok"] for r in results),
        "failed_names": [f"{r['set']}/{r['name']}" for r in results if not r["ok"]],
        "xla_timed": sum("xla_wall_ms" in r for r in results),
        "bench_geomean_xlir_over_xla": float(np.exp(np.mean(np.log(ratios))))
        if ratios
        else None,
        **{
            f"{kind}_elementwise_{key}": {
                r["name"]: r[key]
                for r in results
                if r["set"] == kind and r["elementwise"] and key in r
            }
            for kind in ("bench", "scaled")
            for key in (
                "fraction_of_copy",
                "fraction_of_copy_same_bytes",
                "fraction_of_copy_device",
                "fraction_of_copy_same_bytes_device",
            )
        },
    }


def _number(value: Any, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _row(result: dict[str, Any]) -> str:
    images = " ".join(
        f"{i['image'].split('.')[-1]}:{'ok' if i['ok'] else 'FAIL'}"
        for i in result["images"]
    )
    if not result["images"]:
        images = "FAIL"
    fraction = result.get("fraction_of_copy")
    same = result.get("fraction_of_copy_same_bytes")
    device = result.get("fraction_of_copy_device")
    device_same = result.get("fraction_of_copy_same_bytes_device")
    return (
        f"{result['set'] + '/' + result['name']:<34} {images:<16} "
        f"{_number(result.get('xlir_ms')):>9} "
        f"{_number(result.get('xlir_amortized_ms')):>9} "
        f"{_number(result.get('xla_amortized_ms')):>9} "
        f"{_number(result.get('xlir_over_xla'), 2):>7} "
        f"{_number(result.get('gb_per_s'), 1):>8} "
        f"{'-' if fraction is None else f'{100 * fraction:.0f}%':>6} "
        f"{'-' if same is None else f'{100 * same:.0f}%':>6} "
        f"{_number(result.get('device_ms')):>9} "
        f"{_number(result.get('device_warm_ms')):>9} "
        f"{'-' if device is None else f'{100 * device:.0f}%':>6} "
        f"{'-' if device_same is None else f'{100 * device_same:.0f}%':>6}"
    )


def table(report: dict[str, Any]) -> str:
    """The report as a table, with the failures' first lines under it."""
    device = report["device"]
    head = (
        f"{'program':<34} {'images':<16} {'xlir ev':>9} {'xlir am':>9} {'xla am':>9} "
        f"{'am/am':>7} {'GB/s':>8} {'copy%':>6} {'same%':>6} {'dev ms':>9} "
        f"{'warm ms':>9} {'dcopy%':>6} {'dsame%':>6}"
    )
    lines = [
        f"device: {device['name']} (sm {device['compute_capability']}, driver "
        f"{device['driver_version']}); D2D copy "
        f"{report['copy_bandwidth']['gb_per_s']:.1f} GB/s (device time "
        f"{report['copy_bandwidth']['device_gb_per_s']:.1f} GB/s); XLA: "
        f"{'ok' if report['xla'].get('ok') else report['xla'].get('error', '')[:200]}",
        "ms: 'xlir ev' = CUDA events around one run (median); 'am' = amortized: N runs "
        "(xlir) / N calls (XLA) issued back to back, one wait at the end, / N; am/am = "
        "xlir/XLA on that like-for-like figure; GB/s = input+output bytes / 'xlir ev'; "
        "copy% = that / the 256 MiB D2D copy's GB/s; same% = a D2D copy moving the "
        "program's own bytes (events) / 'xlir ev'; 'dev ms' = the device's own time "
        "(the stream held while the host issues the run, L2 evicted before it; "
        "'warm ms' not evicted); dcopy% and dsame% = copy% and same% by device times",
        head,
    ]
    lines += [_row(r) for r in report["programs"]]
    for result in report["programs"]:
        if result["ok"]:
            continue
        why = result.get("error") or next(
            (i.get("error") or _first_bad(i) for i in result["images"] if not i["ok"]),
            "",
        )
        lines.append(f"FAILED {result['set']}/{result['name']}: {str(why)[:1500]}")
    s = report["summary"]
    lines.append(
        f"{s['programs'] - s['failed']}/{s['programs']} programs pass; bench geomean "
        f"xlir/XLA (amortized) {_number(s['bench_geomean_xlir_over_xla'], 2)}"
    )
    return "\n".join(lines)


def _first_bad(image: dict[str, Any]) -> str:
    for index, output in enumerate(image.get("outputs", [])):
        if not output["ok"]:
            return f"out{index}: {json.dumps({k: v for k, v in output.items() if k != 'ok'})}"
    return ""
