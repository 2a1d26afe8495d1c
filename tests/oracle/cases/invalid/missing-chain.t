# ENOENT: rules, jumps and flushes on chains that do not exist
nft add table ip t
nft add rule ip t nope counter
nft add chain ip t c
nft add rule ip t c jump nope
nft add rule ip t c goto nope
nft delete chain ip t nope
nft flush chain ip t nope
nft delete chain ip t handle 99
nft rename chain ip t nope other
nft list ruleset
