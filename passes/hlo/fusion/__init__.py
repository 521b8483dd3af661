"""The pieces of the `fuse` pass (`passes/hlo/fuse.py`): which ops fuse how
(`op_classes`), the named legality and profitability rules (`rules`), the
forming of groups (`grouping`), the building of `hlo.fusion` ops (`outline`)
and the `explain=true` remarks (`explain`)."""
