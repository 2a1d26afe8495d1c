# deleting objects still referenced: chains (jump), sets, maps, named objects
nft -f @FILE
nft delete chain ip t u
nft delete set ip t s
nft delete map ip t vm
nft delete counter ip t cnt
nft delete quota ip t q
nft delete chain ip t target
nft flush chain ip t c
nft delete chain ip t u
nft delete set ip t s
nft delete counter ip t cnt
nft delete quota ip t q
nft delete map ip t vm
nft delete chain ip t target
nft delete chain ip t c
nft list ruleset
nft delete table ip t
nft list ruleset
