# reset counters/quotas objects and rules that were never hit
nft add table ip t
nft add counter ip t c
nft add quota ip t q { 1 mbytes ; }
nft add chain ip t ch
nft add rule ip t ch counter
nft reset counter ip t c
nft reset quota ip t q
nft reset counters ip
nft reset quotas
nft list ruleset
