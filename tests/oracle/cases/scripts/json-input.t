# JSON input: a ruleset file and inline JSON commands
nft -j -f @FILE.json
nft -a list ruleset
nft -j "{\"nftables\": [{\"add\": {\"rule\": {\"family\": \"ip\", \"table\": \"t\", \"chain\": \"c\", \"expr\": [{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"tcp\", \"field\": \"dport\"}}, \"right\": 80}}, {\"accept\": null}]}}}]}"
nft -j "{\"nftables\": [{\"delete\": {\"rule\": {\"family\": \"ip\", \"table\": \"t\", \"chain\": \"c\", \"handle\": 3}}}]}"
nft -j "{\"nftables\": [{\"add\": {\"element\": {\"family\": \"ip\", \"table\": \"t\", \"name\": \"s\", \"elem\": [\"9.9.9.9\"]}}}]}"
nft -j "{\"nftables\": [{\"delete\": {\"chain\": {\"family\": \"ip\", \"table\": \"t\", \"name\": \"nope\"}}}]}"
nft -j list ruleset
nft -j list tables
nft -j list chain ip t c
nft -j list set ip t s
