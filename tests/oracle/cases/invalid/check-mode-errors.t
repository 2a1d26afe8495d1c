# nft -c reports kernel errors but never commits anything
nft -c add chain ip nope c
nft add table ip t
nft -c add chain ip t c { type nat hook forward priority 0 ; }
nft -c create table ip t
nft -c delete chain ip t nope
nft -c -f @FILE
nft -c add rule ip t c counter
nft list ruleset
