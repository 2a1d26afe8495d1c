# chains: add/create/delete/rename, by name and by handle
nft add table ip t
nft add chain ip t c
nft add chain ip t c
nft create chain ip t c
nft create chain ip t d
nft -a list chains
nft rename chain ip t d e
nft rename chain ip t e c
nft rename chain ip t nope x
nft delete chain ip t handle 2
nft -a list table ip t
nft delete chain ip t c
nft delete chain ip t c
nft add chain ip t c { comment '"user chain"' ; }
nft list chain ip t c
nft list chains ip
