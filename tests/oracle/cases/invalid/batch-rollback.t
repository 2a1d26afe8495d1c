# a batch failing late rolls back earlier table, chain, set and element changes
nft -f @FILE.setup
nft -f @FILE
nft -a list ruleset
nft "flush table ip t; delete table ip nope"
nft "delete element ip t s { 1.1.1.1 }; add element ip t s { 2.2.2.2 }; delete element ip t s { 3.3.3.3 }"
nft "add table ip t { flags dormant; }; delete chain ip t nope"
nft -a list ruleset
