# renames onto an existing name, of a missing chain, within one batch
nft add table ip t
nft add chain ip t a
nft add chain ip t b
nft rename chain ip t a b
nft rename chain ip t nope c
nft "rename chain ip t a c; rename chain ip t b c"
nft "add chain ip t d; rename chain ip t a d"
nft list ruleset
