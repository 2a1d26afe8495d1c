# jump stack depth: a chain of jumps deeper than the kernel allows is refused
nft -f @FILE
nft add chain ip t base { type filter hook input priority 0 ; }
nft add rule ip t base jump c10
nft add rule ip t base jump c5
nft add rule ip t base jump c1
nft add rule ip t base jump c0
nft -a list chain ip t base
