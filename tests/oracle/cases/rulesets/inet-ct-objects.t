# inet stateful objects: ct helper, timeout, expectation, counters, quotas and maps of them
nft -c -f @FILE
nft -f @FILE
