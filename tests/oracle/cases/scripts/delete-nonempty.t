# deleting a chain with rules is EBUSY; a table with contents is fine
nft add table ip t
nft add chain ip t c
nft add rule ip t c counter
nft delete chain ip t c
nft add chain ip t base { type filter hook input priority 0 ; }
nft add rule ip t base counter
nft delete chain ip t base
nft list ruleset
nft delete table ip t
nft list ruleset
