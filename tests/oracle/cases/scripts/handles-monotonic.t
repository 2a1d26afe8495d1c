# handles are never reused inside a table; table handles grow per netns
nft add table ip a
nft add table ip b
nft delete table ip a
nft add table ip a
nft -a list tables
nft add chain ip b c
nft add rule ip b c counter
nft add rule ip b c counter
nft delete rule ip b c handle 3
nft add rule ip b c counter
nft add chain ip b d
nft delete chain ip b d
nft add chain ip b d
nft add set ip b s { type mark ; }
nft -a list ruleset
