-- The Operations screen (issue 18): ROLE_OPERATIONS_VIEW is new to the catalogue. As 004 did for
-- ROLE_AUDIT_LIST, whoever holds ROLE_USERROLE_ADMIN (the bootstrap admin) gets it now: they could
-- grant it to themselves anyway.
INSERT INTO user_roles (user_id, role)
SELECT user_id, 'ROLE_OPERATIONS_VIEW' FROM user_roles WHERE role = 'ROLE_USERROLE_ADMIN'
ON CONFLICT (user_id, role) DO NOTHING;

-- The screen reads the last hour's messages.
CREATE INDEX messages_date_idx ON messages (date_created);
