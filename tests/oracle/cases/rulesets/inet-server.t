# typical server ruleset: sets for admins, services, rate limited ssh
nft -c -f @FILE
nft -f @FILE
