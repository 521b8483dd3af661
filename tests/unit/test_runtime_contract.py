"""The runtime contract (targets/base.py) on every registered target: the
tests of `xlir.testing.target_conformance`, as an out-of-tree target runs
them (examples/new_target/tests/test_conformance.py)."""

from xlir.testing.target_conformance import (  # noqa: F401
    pytest_generate_tests,
    test_a_part_of_an_allocation_is_its_memory,
    test_allocate_copy_both_ways_and_free,
    test_compiled_files_run_as_they_are,
    test_device_schedules_run_through_the_executor,
    test_events_order_work_across_streams,
    test_executables_run_on_a_stream,
    test_launch_on_a_grid,
    test_misuse_is_a_diagnostic,
)
