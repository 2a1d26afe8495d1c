iptables-nft -A INPUT -s 1.1.1.1 -c 10 100 -j ACCEPT
iptables-nft -A INPUT -p tcp --dport 22 -j ACCEPT
iptables-nft -A INPUT -p udp -m multiport --dports 53,123 -j ACCEPT
iptables-nft -A INPUT -m comment --comment "hello world" -j DROP
iptables-nft -L INPUT -v -n -x --line-numbers
iptables-nft -S -v
iptables-nft -Z INPUT 1 -L -n -v
iptables-nft -R INPUT 1 -s 1.1.1.2 -c 5 50 -j ACCEPT
iptables-nft -L INPUT -v -n -x
iptables-nft -D INPUT 9
iptables-nft -D INPUT 0
iptables-nft -I INPUT 0 -j ACCEPT
iptables-nft -A NOPE -j ACCEPT
iptables-nft -X INPUT
iptables-nft -N INPUT
iptables-nft -N x
iptables-nft -A INPUT -j x
iptables-nft -X x
iptables-nft -F x
iptables-nft -E x INPUT
iptables-nft -E x y
iptables-nft -L y -n
iptables-nft -L x -n
iptables-nft -P y ACCEPT
iptables-nft -P OUTPUT DROP
iptables-nft -P OUTPUT ACCEPT
iptables-nft-save -c
iptables-nft -t filter -F
iptables-nft -X y
iptables-nft -X
iptables-nft-save
ip6tables-nft -A OUTPUT -d ::1/128 -p icmpv6 --icmpv6-type echo-request -j ACCEPT
ip6tables-nft -A OUTPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
ip6tables-nft -S
ip6tables-nft -D OUTPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
ip6tables-nft -L -n
nft list ruleset
nft delete table ip filter
iptables-nft -L -n
