# several commands in one invocation form one batch; comments in input
nft "add table ip t; add chain ip t c; add rule ip t c counter; add rule ip t c accept"
nft -a list ruleset
nft "add rule ip t c drop; flush chain ip t c; add rule ip t c meta mark 1"
nft -a list ruleset
nft "delete rule ip t c handle 5; delete chain ip t c"
nft "delete table ip t; list ruleset"
nft list ruleset
