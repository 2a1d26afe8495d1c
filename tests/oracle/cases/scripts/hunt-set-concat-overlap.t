# concatenated ranges (pipapo): a start or end inside an element is EEXIST (add or create),
# an element enclosing another is not; delete removes the element holding the start key
nft add table ip t
nft add set ip t ci { typeof ip saddr . ip daddr\; flags interval\; }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.6 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.1-1.1.1.9 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.6-1.1.1.20 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.2-1.1.1.5 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.6 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.1-1.1.1.9 }
nft create element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.6 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.5 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.7 }
nft add element ip t ci { 10.0.0.0/16 . 1.1.1.5-1.1.1.6 }
nft add element ip t ci { 20.0.0.0/8 . 1.1.1.1-1.1.1.9, 20.0.0.0/8 . 1.1.1.2-1.1.1.3 }
nft add element ip t ci { 30.0.0.0/8 . 1.1.1.1-1.1.1.9, 30.0.0.0/8 . 1.1.1.1-1.1.1.9 }
nft create element ip t ci { 40.0.0.0/8 . 2.2.2.2, 40.0.0.0/8 . 2.2.2.2 }
nft list set ip t ci
nft delete element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.5 }
nft list set ip t ci
nft add map ip t mm { typeof ip saddr . tcp dport : meta mark\; flags interval\; }
nft add element ip t mm { 1.1.1.1 . 10-20 : 1 }
nft add element ip t mm { 1.1.1.1 . 10-20 : 2 }
nft add element ip t mm { 1.1.1.1 . 10-20 : 1 }
nft add element ip t mm { 1.1.1.1 . 15-25 : 1 }
nft delete element ip t mm { 1.1.1.1 . 12-15 }
nft delete element ip t mm { 1.1.1.1 . 5-15 }
nft list map ip t mm
nft add element ip t mm { 1.1.1.1 . 1-9 : 1 }
nft -f @FILE
nft -a list ruleset
