# nft -c validates against the kernel without committing
nft -c add table ip t
nft list ruleset
nft add table ip t
nft -c add chain ip t c { type filter hook input priority 0 ; }
nft -c add chain ip t n { type nat hook forward priority 0 ; }
nft -c add rule ip t nochain counter
nft -c -f @FILE
nft list ruleset
nft -c delete table ip t
nft -c delete table ip nope
nft list ruleset
