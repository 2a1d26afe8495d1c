# EBUSY: deleting sets, maps and stateful objects still used by rules
nft -f @FILE
nft delete set ip t s
nft delete map ip t m
nft delete counter ip t cnt
nft delete quota ip t q
nft delete limit ip t l
nft delete ct helper ip t h
nft delete synproxy ip t sp
nft delete ct timeout ip t to
nft list ruleset
