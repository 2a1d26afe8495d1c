# ENOENT for handles that do not exist: rule delete/replace/position, chain, set, object
nft add table ip t
nft add chain ip t c
nft add rule ip t c counter
nft delete rule ip t c handle 99
nft replace rule ip t c handle 99 counter
nft add rule ip t c position 99 counter
nft insert rule ip t c position 99 counter
nft add rule ip t c index 5 counter
nft delete rule ip t c handle 1
nft delete chain ip t handle 99
nft delete table ip handle 99
nft delete set ip t handle 99
nft delete quota ip t handle 99
nft -a list ruleset
