# nft parser errors: never reach the kernel, but output and status must match
nft add tabel ip t
nft add table ip t {
nft add rule ip t c tcp dport accept
nft add chain ip t c { type filter hook input priority ; }
nft -f @FILE
