# ENOENT: sets, maps and objects that do not exist
nft add table ip t
nft add chain ip t c
nft add rule ip t c ip saddr @nope drop
nft add rule ip t c counter name nope
nft add rule ip t c quota name nope
nft add element ip t nope { 1.1.1.1 }
nft delete set ip t nope
nft delete set ip t handle 99
nft delete counter ip t nope
nft delete counter ip t handle 99
nft list set ip t nope
nft list counter ip t nope
