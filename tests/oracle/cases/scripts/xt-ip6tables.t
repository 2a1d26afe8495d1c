# ip6tables-nft sequences
ip6tables-nft -A INPUT -s 2001:db8::1 -j DROP
ip6tables-nft -A INPUT -p ipv6-icmp --icmpv6-type echo-request -j ACCEPT
ip6tables-nft -I INPUT -i lo -j ACCEPT
ip6tables-nft -N SVC
ip6tables-nft -A SVC -p tcp --dport 22 -j ACCEPT
ip6tables-nft -A INPUT -j SVC
ip6tables-nft -R INPUT 2 -s 2001:db8::2 -j REJECT --reject-with icmp6-adm-prohibited
ip6tables-nft -t nat -A POSTROUTING -o veth0 -j MASQUERADE
ip6tables-nft -t mangle -A PREROUTING -j MARK --set-mark 6
ip6tables-nft -P FORWARD DROP
ip6tables-nft -S
ip6tables-nft -L -n -v
ip6tables-nft -D INPUT 1
ip6tables-nft -C INPUT -j SVC
ip6tables-nft-save
nft list ruleset
