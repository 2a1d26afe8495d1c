# a failing command anywhere in a batch rolls back the whole batch
nft add table ip t
nft -f @FILE
nft list ruleset
nft "add chain ip t a; add rule ip t a counter; add rule ip t nope counter"
nft list ruleset
nft "add chain ip t a; add rule ip t a counter"
nft "delete rule ip t a handle 2; delete rule ip t a handle 2"
nft list ruleset
