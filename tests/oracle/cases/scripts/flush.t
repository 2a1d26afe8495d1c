# flush chain, table, ruleset and per-family ruleset
nft -f @FILE
nft flush chain ip t c
nft list table ip t
nft flush table ip t
nft list ruleset
nft flush set ip t s
nft list set ip t s
nft flush ruleset ip
nft list ruleset
nft flush ruleset inet
nft list ruleset
nft flush ruleset
nft list ruleset
nft flush table ip t
nft flush chain ip6 t c
