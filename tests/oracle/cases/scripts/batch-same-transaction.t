# objects created and used within one transaction (set/chain ids inside a batch)
nft -f @FILE
nft -a list ruleset
nft "add table ip x; add chain ip x c; add set ip x s { type mark; }; add rule ip x c meta mark @s counter; delete rule ip x c handle 3"
nft "add table ip y; delete table ip y; add table ip y; add chain ip y c"
nft -a list ruleset
